package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What survives closing a bus, cleanly or in the middle of a delivery, and opening it again. */
class RestartTest {
  private static final Map<String, String> SHORT_CLOSE = Map.of(Tuning.CLOSE_TIMEOUT, "200");

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void pendingMessage_busClosedBeforeAnyConsumer_isDeliveredAfterReopening() {
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.declare("a", Set.of("x.y.created"));
      bus.publish(message("e1", "x.y.created"));
      bus.send("q", message("t1", "x.y.op"));
    }

    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      Recorder events = new Recorder();
      Recorder tasks = new Recorder();
      bus.consume("a", events);
      bus.consume("q", tasks);
      await().atMost(Duration.ofSeconds(5)).until(() -> events.count() == 1 && tasks.count() == 1);
      assertThat(events.attempts()).containsExactly(1);
      assertThat(tasks.ids()).containsExactly("t1");
    }
  }

  @Test
  void bindings_busReopened_stillRouteEvents() {
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.declare("a", Set.of("x.y.created"));
    }

    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.publish(message("e1", "x.y.created"));
      assertThat(bus.depth("a")).isEqualTo(1);
    }
  }

  @Test
  void claimedMessage_busClosedWhileHandling_isDeliveredAgainAfterReopeningWithHigherAttempt() {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch handling = new CountDownLatch(1);
    EmbeddedBus first = Fixtures.open(dir, clock, SHORT_CLOSE);
    first.send("q", message("t1", "x.y.op"));
    first.consume(
        "q",
        d -> {
          handling.countDown();
          awaitQuietly(never); // interrupted when the close gives up waiting
          return Verdict
              .DONE; // too late: the bus is closed, so this verdict is lost, as in a crash
        });
    await().atMost(Duration.ofSeconds(5)).until(() -> handling.getCount() == 0);
    assertThat(Fixtures.column(dir, "q", "t1", "attempts"))
        .as("counted before the handler ran")
        .isEqualTo(1);

    first.close();

    try (EmbeddedBus second = Fixtures.open(dir, clock)) {
      assertThat(second.depth("q")).isEqualTo(1);
      Recorder recorder = new Recorder();
      second.consume("q", recorder);
      await().atMost(Duration.ofSeconds(5)).until(() -> second.depth("q") == 0);
      assertThat(recorder.attempts()).containsExactly(2);
    }
  }

  @Test
  void parked_busReopened_isStillListedAndReplayable() {
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.send("q", message("t1", "x.y.op"));
      bus.consume("q", d -> new Verdict.Park("SYSTEM", "the database is gone"));
      await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == 1);
    }

    Parked parked;
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      assertThat(bus.parked()).hasSize(1);
      parked = bus.parked().get(0);
      assertThat(parked.code()).isEqualTo("SYSTEM");
      assertThat(parked.reason()).isEqualTo("the database is gone");
      assertThat(parked.attempts()).isEqualTo(1);
      assertThat(bus.replay(parked.id())).isTrue();
    }

    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      assertThat(bus.parked()).isEmpty();
      assertThat(bus.replay(parked.id())).as("already replayed").isFalse();
      Recorder recorder = new Recorder();
      bus.consume("q", recorder);
      await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
      assertThat(recorder.attempts()).containsExactly(2);
      assertThat(recorder.deliveries().get(0).message()).isEqualTo(parked.message());
    }
  }

  @Test
  void retry_busReopened_keepsItsDueTime() {
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.send("q", message("t1", "x.y.op"));
      bus.consume("q", d -> new Verdict.Retry(Duration.ofMinutes(1)));
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> Fixtures.column(dir, "q", "t1", "not_before") == Fixtures.START + 60_000);
    }

    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      Recorder recorder = new Recorder();
      bus.consume("q", recorder);
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(1))
          .until(() -> recorder.count() == 0);
      clock.advance(Duration.ofMinutes(1));
      await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 1);
      assertThat(recorder.attempts()).containsExactly(2);
    }
  }

  @Test
  void subscriptionClose_handlerInProgress_waitsForItAndRecordsItsVerdict() {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch handling = new CountDownLatch(1);
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      bus.send("q", message("t1", "x.y.op"));
      Bus.Subscription subscription =
          bus.consume(
              "q",
              d -> {
                handling.countDown();
                return awaitQuietly(release) ? Verdict.DONE : new Verdict.Retry(Duration.ZERO);
              });
      await().atMost(Duration.ofSeconds(5)).until(() -> handling.getCount() == 0);

      CompletableFuture<Void> closing = CompletableFuture.runAsync(subscription::close);
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(1))
          .until(() -> !closing.isDone());
      release.countDown();

      await().atMost(Duration.ofSeconds(5)).until(closing::isDone);
      assertThat(bus.depth("q")).isZero();
    }
  }

  @Test
  void subscriptionClose_fromItsOwnHandler_doesNotWaitForItselfAndRecordsTheVerdict() {
    AtomicReference<Bus.Subscription> subscription = new AtomicReference<>();
    CountDownLatch closedInside = new CountDownLatch(1);
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) { // the close timeout is the default, 10 s
      subscription.set(
          bus.consume(
              "q",
              d -> {
                subscription.get().close();
                closedInside.countDown();
                return Verdict.DONE;
              }));
      bus.send("q", message("t1", "x.y.op"));

      await().atMost(Duration.ofSeconds(3)).until(() -> closedInside.getCount() == 0);
      await().atMost(Duration.ofSeconds(3)).until(() -> bus.depth("q") == 0);
    }
  }

  @Test
  void subscriptionClosed_laterMessages_stayQueued() {
    try (EmbeddedBus bus = Fixtures.open(dir, clock)) {
      Recorder recorder = new Recorder();
      Bus.Subscription subscription = bus.consume("q", recorder);
      subscription.close();

      bus.send("q", message("t1", "x.y.op"));

      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(1))
          .until(() -> recorder.count() == 0);
      assertThat(bus.depth("q")).isEqualTo(1);
    }
  }

  private static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
