package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.UnreachableException;
import io.toa4j.tck.time.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Booting waits for a server that cannot be reached yet, trying again with growing delays, for as
 * long as the options allow, and only for that kind of failure.
 */
class StartupWaitTest {
  final TestClock clock = new TestClock();
  final List<Long> sleeps = new ArrayList<>();

  Options waiting(Duration wait) {
    return Options.defaults()
        .withClock(clock)
        .withStartupWait(wait)
        .withSleeper(
            millis -> {
              sleeps.add(millis);
              clock.advance(Duration.ofMillis(millis));
            });
  }

  /** Out of reach {@code failures} times, then open. */
  static java.util.function.Supplier<String> reachableAfter(int failures, AtomicInteger attempts) {
    return () -> {
      if (attempts.incrementAndGet() <= failures)
        throw new UnreachableException("nothing listens on 127.0.0.1:1");
      return "open";
    };
  }

  @Test
  void triesAgain_everySecondAtMost_untilTheServerAnswers() {
    AtomicInteger attempts = new AtomicInteger();
    String opened =
        Engines.patiently("the storage", waiting(Options.FOREVER), reachableAfter(8, attempts));
    assertThat(opened).isEqualTo("open");
    assertThat(attempts).hasValue(9);
    assertThat(sleeps)
        .as("a server back between two attempts is reached within a second")
        .containsExactly(500L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L, 1000L);
  }

  @Test
  void noWait_failsAtTheFirstAttempt() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Engines.patiently(
                    "the storage", waiting(Duration.ZERO), reachableAfter(1, attempts)))
        .isInstanceOf(UnreachableException.class)
        .hasMessageContaining("nothing listens");
    assertThat(attempts).hasValue(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void givesUp_whenTheWaitIsOver_withTheLastReason() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Engines.patiently(
                    "the bus", waiting(Duration.ofSeconds(5)), reachableAfter(100, attempts)))
        .isInstanceOf(UnreachableException.class);
    // 0.5 + 1 + 1 + 1 + 1 + 1 = 5.5 s: the attempt after the sixth sleep finds the 5 s spent
    assertThat(sleeps).containsExactly(500L, 1000L, 1000L, 1000L, 1000L, 1000L);
    assertThat(attempts).hasValue(7);
  }

  @Test
  void otherFailures_areNotRetried() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Engines.patiently(
                    "the storage",
                    waiting(Options.FOREVER),
                    () -> {
                      attempts.incrementAndGet();
                      throw new IllegalStateException(
                          "password authentication failed for user \"toa\"");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .isNotInstanceOf(UnreachableException.class);
    assertThat(attempts).hasValue(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void aNegativeWait_isRefused() {
    assertThatThrownBy(() -> Options.defaults().withStartupWait(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startupWait must not be negative");
  }
}
