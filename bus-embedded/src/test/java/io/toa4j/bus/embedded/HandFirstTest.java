package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first publish that finds a subscription of this bus with room and no backlog hands the message
 * to a handler before it is stored, and returns once the verdict is in: {@code Done} writes
 * nothing; a retry or a parking stores the message as it stands, its attempt counted; a handler
 * still running when the publish stops waiting has its message stored claimed, and its verdict is
 * recorded when it comes.
 */
class HandFirstTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration QUIET = Duration.ofMillis(300);

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  /**
   * A bus with a subscription of queue a whose first poll found nothing: publishes may hand to it.
   */
  private EmbeddedBus caughtUp(Recorder a, Map<String, String> options) {
    EmbeddedBus bus = (EmbeddedBus) Fixtures.open(dir, clock, options);
    bus.declare("a", Set.of("x.y.created"));
    bus.declare("b", Set.of("x.y.created"));
    bus.consume("a", a);
    await().atMost(WAIT).until(() -> bus.polls("a") > 0);
    return bus;
  }

  @Test
  void publish_idleSubscription_handledDone_beforeItReturns_andNothingIsWrittenForIt() {
    Recorder a = new Recorder();
    try (EmbeddedBus bus = caughtUp(a, Map.of())) {
      for (int i = 0; i < 20; i++) {
        bus.publish(message("e" + i, "x.y.created"));
        assertThat(a.count()).as("handled when the publish returned").isEqualTo(i + 1);
      }
      bus.publish(
          List.of(
              message("f1", "x.y.created"),
              message("f2", "x.y.created"),
              message("f3", "x.y.created")));

      assertThat(a.count()).isEqualTo(23);
      assertThat(a.attempts()).containsOnly(1);
      assertThat(bus.handedFirst()).isEqualTo(23);
      assertThat(bus.claimedAsPublished()).isZero();
      assertThat(Fixtures.rows(dir, "a")).as("rows ever left in the file for queue a").isZero();
      assertThat(bus.depth("b"))
          .as("a queue without a subscription of this bus gets its copy, stored")
          .isEqualTo(23);
      assertThat(Fixtures.column(dir, "b", "e0", "attempts")).isZero();
    }
  }

  @Test
  void publish_handOffWaitZero_storesFirst_claimedAsPublished() {
    Recorder a = new Recorder();
    try (EmbeddedBus bus = caughtUp(a, Map.of(Tuning.HAND_OFF_WAIT, "0"))) {
      bus.publish(message("e1", "x.y.created"));

      await().atMost(WAIT).until(() -> a.count() == 1 && bus.depth("a") == 0);
      assertThat(bus.handedFirst()).isZero();
      assertThat(bus.claimedAsPublished()).isEqualTo(1);
    }
  }

  @Test
  void publish_handlerRetries_isStoredDueLater_withItsAttemptCounted_andComesAgain() {
    Recorder a =
        new Recorder(
            d -> d.attempt() == 1 ? new Verdict.Retry(Duration.ofSeconds(30)) : Verdict.DONE);
    try (EmbeddedBus bus = caughtUp(a, Map.of())) {
      bus.publish(message("e1", "x.y.created"));

      assertThat(Fixtures.column(dir, "a", "e1", "attempts")).isEqualTo(1);
      assertThat(Fixtures.column(dir, "a", "e1", "not_before")).isEqualTo(Fixtures.START + 30_000);
      assertThat(Fixtures.column(dir, "a", "e1", "first_failed")).isEqualTo(Fixtures.START);
      clock.advance(Duration.ofSeconds(30));
      await().atMost(WAIT).until(() -> a.count() == 2 && bus.depth("a") == 0);
      assertThat(a.attempts()).containsExactly(1, 2);
    }
  }

  @Test
  void publish_handlerParks_isStoredParked_beforeThePublishReturns() {
    Recorder a = new Recorder(d -> new Verdict.Park("SYSTEM", "broken"));
    try (EmbeddedBus bus = caughtUp(a, Map.of())) {
      bus.publish(message("e1", "x.y.created"));

      List<Parked> parked = bus.parked();
      assertThat(parked).hasSize(1);
      assertThat(parked.get(0).queue()).isEqualTo("a");
      assertThat(parked.get(0).message().id()).isEqualTo("e1");
      assertThat(parked.get(0).attempts()).isEqualTo(1);
      assertThat(parked.get(0).code()).isEqualTo("SYSTEM");
      assertThat(parked.get(0).reason()).isEqualTo("broken");

      bus.publish(message("e1", "x.y.created"));
      assertThat(a.count())
          .as("the same id while parked is neither handed nor stored")
          .isEqualTo(1);
    }
  }

  @Test
  void publish_handlerStillRunning_isStoredClaimed_notTakenByAPoll_andRemovedOnItsVerdict()
      throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    Recorder a =
        new Recorder(
            d -> {
              Fixtures.awaitQuietly(go);
              return Verdict.DONE;
            });
    try (EmbeddedBus bus = caughtUp(a, Map.of())) {
      long start = System.nanoTime();
      bus.publish(message("e1", "x.y.created"));
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the publish waited for the verdict")
          .isGreaterThanOrEqualTo(Tuning.DEFAULT.handOffWait());
      assertThat(Fixtures.column(dir, "a", "e1", "attempts"))
          .as("stored claimed, its attempt counted")
          .isEqualTo(1);
      // the handler it went to still runs; no poll takes the stored row meanwhile
      await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> a.count() == 1);

      go.countDown();
      await().atMost(WAIT).until(() -> Fixtures.rows(dir, "a") == 0);
      await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> a.count() == 1);
      assertThat(a.attempts()).containsExactly(1);
    }
  }

  @Test
  void publish_handlerStillRunning_busClosed_isDeliveredAgainWithHigherAttempt() {
    CountDownLatch never = new CountDownLatch(1);
    EmbeddedBus first =
        caughtUp(
            new Recorder(
                d -> {
                  Fixtures.awaitQuietly(never); // interrupted when the close gives up waiting
                  return Verdict
                      .DONE; // too late: the bus is closed, so this verdict is lost, as in a crash
                }),
            Map.of(Tuning.CLOSE_TIMEOUT, "200"));
    first.publish(message("e1", "x.y.created"));
    assertThat(Fixtures.column(dir, "a", "e1", "attempts")).isEqualTo(1);
    first.close();

    assertThat(Fixtures.handledByANewBus(dir, clock, "a"))
        .as("(id, attempt) handled by the next bus")
        .containsExactly("e1 2");
  }
}
