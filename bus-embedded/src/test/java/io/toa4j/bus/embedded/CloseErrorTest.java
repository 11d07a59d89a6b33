package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Verdict;
import io.toa4j.testkit.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the bus gives everything back whatever its first steps throw, an {@code Error}
 * included: the {@code Error} is a real one, {@link ThreadDeath}, thrown into the closing thread
 * while it waits for a handler that does not end ({@link Thread#stop()}, which Java 17 still has:
 * the build's CI runs 17; from Java 20 it throws {@code UnsupportedOperationException}, and this
 * test fails saying so rather than passing without the Error).
 */
class CloseErrorTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  @SuppressWarnings("removal") // Thread.stop: the one way to throw an Error into a thread where it waits
  void anErrorWhileWaitingForTheHandlers_stillStopsThem_closesTheFile_andGivesBackTheConsumerLock() throws Exception {
    CountDownLatch handling = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Bus bus = Fixtures.open(dir, clock, Map.of(Tuning.CLOSE_TIMEOUT, "600000"));
    bus.declare("q", Set.of("e"));
    bus.consume("q", delivery -> {
      handling.countDown();
      try {
        new CountDownLatch(1).await(); // a handler that never ends on its own
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
      return Verdict.DONE;
    });
    bus.publish(message("m1", "e"));
    assertThat(handling.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the handler runs").isTrue();

    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread closer = new Thread(bus::close, "closer");
    closer.setUncaughtExceptionHandler((thread, e) -> thrown.set(e));
    closer.start();
    await().atMost(PATIENCE).until(() -> Arrays.stream(closer.getStackTrace()).anyMatch(f -> f.getMethodName().equals("awaitIdle"))
        && closer.getState() == Thread.State.TIMED_WAITING);
    closer.stop();
    closer.join(PATIENCE.toMillis());

    assertThat(closer.isAlive()).isFalse();
    assertThat(thrown.get()).as("the Error goes out of close").isInstanceOf(ThreadDeath.class);
    assertThat(interrupted.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the handler is stopped").isTrue();
    assertThatThrownBy(() -> bus.publish(message("m2", "e"))).as("the file is closed").isInstanceOf(Database.Closed.class);
    try (Bus next = Fixtures.open(dir, clock)) {
      next.consume("q", delivery -> Verdict.DONE); // throws while another bus holds the consumer lock
      await().atMost(PATIENCE).until(() -> Fixtures.rows(dir, "q") == 0);
    }
  }
}
