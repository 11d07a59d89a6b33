package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the bus gives everything back whatever its first steps throw, an {@code Error} included:
 * the wait for a handler that does not end throws a {@link StackOverflowError} once it has waited a
 * while (the bus's wait, replaced by one that waits as the bus does and then throws, as a wait deep
 * in a stack may), on any Java.
 */
class CloseErrorTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void anErrorWhileWaitingForTheHandlers_stillStopsThem_closesTheFile_andGivesBackTheConsumerLock()
      throws Exception {
    CountDownLatch handling = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    EmbeddedBus bus =
        (EmbeddedBus) Fixtures.open(dir, clock, Map.of(Tuning.CLOSE_TIMEOUT, "600000"));
    CountDownLatch waited = new CountDownLatch(1);
    bus.idling(
        (subscriber, deadline) -> {
          subscriber.awaitIdle(
              System.nanoTime() + Duration.ofMillis(200).toNanos()); // the handler does not end
          waited.countDown();
          throw new StackOverflowError("while waiting for the handlers");
        });
    bus.declare("q", Set.of("e"));
    bus.consume(
        "q",
        delivery -> {
          handling.countDown();
          try {
            new CountDownLatch(1).await(); // a handler that never ends on its own
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
          return Verdict.DONE;
        });
    bus.publish(message("m1", "e"));
    assertThat(handling.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
        .as("the handler runs")
        .isTrue();

    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread closer = new Thread(bus::close, "closer");
    closer.setUncaughtExceptionHandler((thread, e) -> thrown.set(e));
    closer.start();
    closer.join(PATIENCE.toMillis());

    assertThat(waited.getCount()).as("close waited for the handler").isZero();
    assertThat(closer.isAlive()).isFalse();
    assertThat(thrown.get())
        .as("the Error goes out of close")
        .isInstanceOf(StackOverflowError.class);
    assertThat(interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
        .as("the handler is stopped")
        .isTrue();
    assertThatThrownBy(() -> bus.publish(message("m2", "e")))
        .as("the file is closed")
        .isInstanceOf(Database.Closed.class);
    try (Bus next = Fixtures.open(dir, clock)) {
      next.consume(
          "q", delivery -> Verdict.DONE); // throws while another bus holds the consumer lock
      await().atMost(PATIENCE).until(() -> Fixtures.rows(dir, "q") == 0);
    }
  }
}
