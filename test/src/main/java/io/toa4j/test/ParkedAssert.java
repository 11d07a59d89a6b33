package io.toa4j.test;

import io.toa4j.spi.Parked;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a context's {@link ParkedMessages}, and on one of them. */
public final class ParkedAssert extends AbstractAssert<ParkedAssert, ParkedMessages> {
  ParkedAssert(ParkedMessages actual) {
    super(actual, ParkedAssert.class);
  }

  /** Verifies that no message is parked. */
  public ParkedAssert isEmpty() {
    isNotNull();
    if (!actual.messages().isEmpty())
      failWithMessage("Expected no parked message, but there are: %s", actual);
    return myself;
  }

  /** Verifies how many messages are parked. */
  public ParkedAssert hasSize(int size) {
    isNotNull();
    if (actual.messages().size() != size)
      failWithMessage(
          "Expected %s parked message(s), but there are %s: %s",
          size, actual.messages().size(), actual);
    return myself;
  }

  /**
   * Assertions on the only parked message with this label; fails when there is none, or more than
   * one.
   */
  public One one(String label) {
    isNotNull();
    List<Parked> matching = actual.of(label);
    if (matching.size() != 1)
      failWithMessage(
          "Expected one parked message %s, but there are %s; parked: %s",
          label, matching.size(), actual);
    return new One(matching.get(0));
  }

  /**
   * Assertions on one parked message: where it came from, why it was parked, after how many
   * attempts.
   */
  public static final class One extends AbstractAssert<One, Parked> {
    One(Parked actual) {
      super(actual, One.class);
    }

    private String what() {
      return "parked message " + actual.message().label() + " " + actual.message().id();
    }

    /** Verifies the queue it came from and returns to on replay. */
    public One fromQueue(String queue) {
      if (!actual.queue().equals(queue))
        failWithMessage(
            "Expected %s to come from %s, but it came from %s", what(), queue, actual.queue());
      return myself;
    }

    /** Verifies the code of the failure that parked it. */
    public One hasCode(String code) {
      if (!actual.code().equals(code))
        failWithMessage(
            "Expected %s to be parked with %s, but it was with %s: %s",
            what(), code, actual.code(), actual.reason());
      return myself;
    }

    /** Verifies that the failure's message contains this text. */
    public One hasReasonContaining(String text) {
      if (!actual.reason().contains(text))
        failWithMessage(
            "Expected the reason %s was parked for to contain '%s', but it is: %s",
            what(), text, actual.reason());
      return myself;
    }

    /** Verifies how many times it was delivered before it was parked. */
    public One afterAttempts(int attempts) {
      if (actual.attempts() != attempts)
        failWithMessage(
            "Expected %s to be parked after %s attempt(s), but it was after %s",
            what(), attempts, actual.attempts());
      return myself;
    }
  }
}
