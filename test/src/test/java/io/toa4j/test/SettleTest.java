package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import kit.mailer.operations.Send;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Settling a context built in code whose receiver fails or hangs: the failure names what is
 * pending, a retry waits for the test clock, and a message that keeps failing ends parked.
 */
class SettleTest {
  /** Where kit.orders.created reaches kit.mailer. */
  static final String QUEUE = "kit.orders.created..kit.mailer";

  @RegisterExtension
  final ToaContext toa =
      ToaContext.built(Kit::context)
          .with(b -> b.retryDelays(Duration.ofSeconds(5)))
          .settleTimeout(Duration.ofSeconds(20));

  @Test
  void aReceiverThatFails_waitsForTheTestClockAndSaysSoAtOnce() {
    toa.call("kit.orders.place", Kit.place("poison"));
    long start = System.nanoTime();

    assertThatThrownBy(toa::settle)
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "The context cannot settle until the test clock moves; still pending: 1 message(s) in "
                + QUEUE
                + ". ")
        .hasMessageContaining("Waiting for a retry: kit.orders.created ")
        .hasMessageContaining(
            " on " + QUEUE + " failed at attempt 1 and is retried in 5 s by the test clock")
        .hasMessageEndingWith("(move time with advance(Duration))");
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("it does not wait out the timeout")
        .isLessThan(Duration.ofSeconds(10));
    assertThat(toa.parked()).isEmpty();
  }

  @Test
  void aReceiverThatKeepsFailing_isParkedOnceTheClockHasMoved() {
    toa.call("kit.orders.place", Kit.place("poison"));
    assertThatThrownBy(toa::settle).hasMessageContaining("retried in 5 s");

    toa.advance(Duration.ofSeconds(5));
    toa.settle();

    assertThat(toa.parked())
        .hasSize(1)
        .one("kit.orders.created")
        .fromQueue(QUEUE)
        .hasCode("SYSTEM")
        .hasReasonContaining("the mail server refuses poison")
        .afterAttempts(2);
    assertThat(toa.record("kit.orders", Kit.ORDER)).has("item", "poison").hasVersion(1);
    assertThatThrownBy(() -> assertThat(toa.parked()).isEmpty())
        .hasMessageStartingWith(
            "Expected no parked message, but there are: kit.orders.created on " + QUEUE)
        .hasMessageContaining("after 2 attempt(s), SYSTEM: ");
  }

  @Test
  void aReceiverStillRunning_failsTheSettleAtItsTimeoutNamingTheQueue() {
    Send.RELEASE = new CountDownLatch(1);
    toa.call("kit.orders.place", Kit.place("slow"));
    try {
      assertThatThrownBy(() -> toa.settle(Duration.ofMillis(700)))
          .isInstanceOf(AssertionError.class)
          .hasMessage(
              "The context did not settle within 0.7 s; still pending: 1 message(s) in " + QUEUE);
    } finally {
      Send.RELEASE.countDown();
    }

    toa.settle();
    assertThat(toa.parked()).isEmpty();
  }
}
