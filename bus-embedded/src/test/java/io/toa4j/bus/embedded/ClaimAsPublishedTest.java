package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A republish (events that may have been delivered before) that finds a subscription of this bus
 * with room and no backlog stores the message claimed, its first attempt counted in the publish's
 * own transaction, and hands it straight to a handler; otherwise the message waits for a poll, as
 * before. Either way it is one claimed row with its attempt in the file before any handler sees it,
 * and a close in the middle leaves it to come again. ({@link HandFirstTest}: a first publish.)
 */
class ClaimAsPublishedTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void republish_idleSubscription_isHandedOverClaimedWithItsAttemptCounted() {
    try (EmbeddedBus bus = (EmbeddedBus) Fixtures.open(dir, clock)) {
      bus.declare("a", Set.of("x.y.created"));
      bus.declare("b", Set.of("x.y.created"));
      Recorder a = new Recorder();
      bus.consume("a", a);
      await()
          .atMost(WAIT)
          .until(() -> bus.polls("a") > 0); // the first poll found nothing: caught up

      for (int i = 0; i < 20; i++) {
        int n = i;
        bus.republish(List.of(message("e" + i, "x.y.created")));
        await().atMost(WAIT).until(() -> a.count() == n + 1);
      }
      bus.republish(
          List.of(
              message("f1", "x.y.created"),
              message("f2", "x.y.created"),
              message("f3", "x.y.created")));
      await().atMost(WAIT).until(() -> a.count() == 23 && bus.depth("a") == 0);

      assertThat(a.attempts()).hasSize(23).containsOnly(1);
      assertThat(bus.claimedAsPublished()).as("each went straight to a handler").isEqualTo(23);
      assertThat(bus.handedFirst()).as("none before it was stored").isZero();
      assertThat(bus.depth("b"))
          .as("a queue without a subscription of this bus gets its copy, unclaimed")
          .isEqualTo(23);
      assertThat(Fixtures.column(dir, "b", "e0", "attempts")).isZero();
    }
  }

  @Test
  void republish_subscriptionWithoutRoom_leavesTheMessageToAPoll() throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    try (EmbeddedBus bus =
        (EmbeddedBus) Fixtures.open(dir, clock, Map.of(Tuning.MAX_IN_FLIGHT, "2"))) {
      bus.declare("a", Set.of("x.y.created"));
      Recorder a =
          new Recorder(
              d -> {
                if (d.message().id().startsWith("slow")) {
                  running.incrementAndGet();
                  Fixtures.awaitQuietly(go);
                }
                return Verdict.DONE;
              });
      bus.consume("a", a);
      await().atMost(WAIT).until(() -> bus.polls("a") > 0);
      bus.republish(List.of(message("slow1", "x.y.created"), message("slow2", "x.y.created")));
      await().atMost(WAIT).until(() -> running.get() == 2);
      long before = bus.claimedAsPublished();
      assertThat(before).as("both taken as they were stored").isEqualTo(2);

      bus.republish(List.of(message("later", "x.y.created")));
      assertThat(bus.claimedAsPublished()).as("no room: stored unclaimed").isEqualTo(before);
      assertThat(Fixtures.column(dir, "a", "later", "attempts")).isZero();

      go.countDown();
      await().atMost(WAIT).until(() -> a.count() == 3 && bus.depth("a") == 0);
      assertThat(a.attempts()).containsOnly(1);
    }
  }

  @Test
  void claimedAsPublished_busClosedWhileHandling_isDeliveredAgainWithHigherAttempt() {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch handling = new CountDownLatch(1);
    EmbeddedBus first =
        (EmbeddedBus) Fixtures.open(dir, clock, Map.of(Tuning.CLOSE_TIMEOUT, "200"));
    first.declare("a", Set.of("x.y.created"));
    first.consume(
        "a",
        d -> {
          handling.countDown();
          Fixtures.awaitQuietly(never); // interrupted when the close gives up waiting
          return Verdict
              .DONE; // too late: the bus is closed, so this verdict is lost, as in a crash
        });
    await().atMost(WAIT).until(() -> first.polls("a") > 0);
    first.republish(List.of(message("e1", "x.y.created")));
    await().atMost(WAIT).until(() -> handling.getCount() == 0);
    assertThat(first.claimedAsPublished()).isEqualTo(1);
    assertThat(Fixtures.column(dir, "a", "e1", "attempts"))
        .as("counted in the publish, before the handler ran")
        .isEqualTo(1);
    first.close();

    assertThat(Fixtures.handledByANewBus(dir, clock, "a"))
        .as("(id, attempt) handled by the next bus")
        .containsExactly("e1 2");
  }
}
