package io.toa4j.test;

import io.toa4j.api.Reply;
import java.util.Map;

/** Assertions on a {@link Replied}: an output and its properties, or a refusal and its code. */
public final class ReplyAssert extends PropertiesAssert<ReplyAssert, Replied> {
  ReplyAssert(Replied actual) {
    super(actual, ReplyAssert.class);
  }

  @Override
  protected Map<String, Object> properties() {
    isOutput();
    return actual.properties();
  }

  @Override
  protected String what() {
    return "the reply of " + actual.endpoint() + " (identity " + actual.identity() + ")";
  }

  /** Verifies that the call was not refused. */
  public ReplyAssert isOutput() {
    isNotNull();
    if (actual.reply() instanceof Reply.Refused refused) {
      failWithMessage(
          "Expected %s to be an output, but it was refused with %s",
          what(), refused.refusal().code());
    }
    return myself;
  }

  /** Verifies that the call was refused with this code. */
  public ReplyAssert isRefused(String code) {
    isNotNull();
    if (!(actual.reply() instanceof Reply.Refused refused)) {
      failWithMessage(
          "Expected %s to be refused with %s, but it was an output: %s",
          what(), code, actual.value().orElse("nothing"));
    } else if (!refused.refusal().code().equals(code)) {
      failWithMessage(
          "Expected %s to be refused with %s, but it was refused with %s",
          what(), code, refused.refusal().code());
    }
    return myself;
  }

  /**
   * Verifies that the operation's inbox answered it with the first answer: the call was made
   * before.
   */
  public ReplyAssert isReplayed() {
    isNotNull();
    if (!actual.replayed())
      failWithMessage("Expected %s to be answered from the inbox, but the operation ran", what());
    return myself;
  }

  /** Verifies that the operation ran for it, rather than its inbox answering. */
  public ReplyAssert isNotReplayed() {
    isNotNull();
    if (actual.replayed())
      failWithMessage("Expected the operation to run for %s, but its inbox answered it", what());
    return myself;
  }
}
