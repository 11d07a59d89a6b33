package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OpeningTest {
  /** An engine that counts how often it is closed. */
  private static final class Engine implements AutoCloseable {
    final AtomicInteger closed = new AtomicInteger();

    @Override
    public void close() {
      closed.incrementAndGet();
    }
  }

  @Test
  void get_openedOnItsThread_handsTheEngineOverUnclosed() {
    Engine engine = new Engine();
    Opening<Engine> opening = Opening.start("test-open", () -> engine);

    assertThat(opening.get()).isSameAs(engine);
    assertThat(engine.closed).hasValue(0);
    assertThat(opening.millis()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void get_openingThrows_rethrowsWhatItThrewAsItWas() {
    StartupException refused = new StartupException("refused its options");
    Opening<Engine> failing =
        Opening.start(
            "test-open",
            () -> {
              throw refused;
            });
    assertThatThrownBy(failing::get).isSameAs(refused);

    AssertionError error = new AssertionError("an Error out of a provider");
    Opening<Engine> erring =
        Opening.start(
            "test-open",
            () -> {
              throw error;
            });
    assertThatThrownBy(erring::get).isSameAs(error);
  }

  @Test
  void abandon_whileWaitingForItsServer_interruptsTheWaitAndOpensNothing()
      throws InterruptedException {
    CountDownLatch waiting = new CountDownLatch(1);
    Engine engine = new Engine();
    Opening<Engine> opening =
        Opening.start(
            "test-open",
            () -> {
              waiting.countDown();
              try {
                new CountDownLatch(1).await(1, TimeUnit.MINUTES); // a server that never answers
                return engine;
              } catch (InterruptedException e) {
                throw new StartupException("Interrupted while waiting for the bus", e);
              }
            });
    assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
    RuntimeException cause = new RuntimeException("the components did not compile");

    long before = System.nanoTime();
    opening.abandon(cause);

    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - before))
        .as("abandoned without waiting out the server")
        .isLessThan(30);
    assertThat(engine.closed).hasValue(0);
    assertThat(cause.getSuppressed()).isEmpty();
  }

  @Test
  void abandon_afterTheEngineOpened_closesItOnce() {
    Engine engine = new Engine();
    Opening<Engine> opening = Opening.start("test-open", () -> engine);

    opening.abandon(new RuntimeException("the storage did not open"));

    assertThat(engine.closed).hasValue(1);
  }

  @Test
  void abandon_closingThrows_addsItToTheCause() {
    IllegalStateException closing = new IllegalStateException("close failed");
    Opening<AutoCloseable> opening =
        Opening.start(
            "test-open",
            () ->
                () -> {
                  throw closing;
                });
    RuntimeException cause = new RuntimeException("the bus did not open");

    opening.abandon(cause);

    assertThat(cause.getSuppressed()).containsExactly(closing);
  }
}
