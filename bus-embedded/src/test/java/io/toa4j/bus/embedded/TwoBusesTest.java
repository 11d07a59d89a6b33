package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two buses open on one folder, as a running context and a {@code toa} command would be: both write
 * and read, one consumes.
 */
class TwoBusesTest {
  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);
  private EmbeddedBus first;
  private EmbeddedBus second;

  @BeforeEach
  void open() {
    first = Fixtures.open(dir, clock);
    second = Fixtures.open(dir, clock);
  }

  @AfterEach
  void close() {
    first.close();
    second.close();
  }

  @Test
  void secondBus_consuming_getsWhatTheFirstSentAndPublished() {
    second.declare("a", Set.of("x.y.created"));
    Recorder recorder = new Recorder();
    second.consume("a", recorder);
    second.consume("q", recorder);

    first.publish(message("e1", "x.y.created"));
    first.send("q", message("t1", "x.y.op"));

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 2);
    assertThat(recorder.ids()).containsExactlyInAnyOrder("e1", "t1");
    assertThat(first.depth("a") + first.depth("q")).isZero();
  }

  @Test
  void publish_afterTheOtherBusBoundAQueue_reachesThatQueueToo() {
    first.declare("a", Set.of("x.y.created"));
    Recorder a = new Recorder();
    first.consume("a", a);
    await().atMost(Duration.ofSeconds(5)).until(() -> ((EmbeddedBus) first).polls("a") > 0);
    // more publishes than the bus has readers, so that each reader has read the bindings
    for (int i = 0; i < 8; i++) first.publish(message("e" + i, "x.y.created"));
    assertThat(a.count())
        .as("handed before stored: nothing written since the bindings were read")
        .isEqualTo(8);
    assertThat(Fixtures.rows(dir, "a")).isZero();

    second.declare("c", Set.of("x.y.created"));
    for (int i = 8; i < 16; i++) first.publish(message("e" + i, "x.y.created"));

    assertThat(Fixtures.rows(dir, "c"))
        .as("the queue the other process bound after those publishes")
        .isEqualTo(8);
    assertThat(Fixtures.column(dir, "c", "e8", "attempts")).isZero();
    assertThat(a.count()).isEqualTo(16);
    assertThat(Fixtures.rows(dir, "a")).isZero();
  }

  @Test
  void secondBus_whileFirstConsumes_isRefusedUntilFirstCloses() {
    first.consume("q", new Recorder());

    assertThatThrownBy(() -> second.consume("other", new Recorder()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("one consuming process")
        .hasMessageContaining(dir.toString());

    first.close();
    Recorder recorder = new Recorder();
    second.consume("q", recorder);
    second.send("q", message("t1", "x.y.op"));
    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 1);
  }

  @Test
  void parked_byConsumingBus_isListedAndReplayedByTheOther() {
    Recorder recorder =
        new Recorder(d -> d.attempt() == 1 ? new Verdict.Park("SYSTEM", "down") : Verdict.DONE);
    first.consume("q", recorder);
    first.send("q", message("t1", "x.y.op"));
    await().atMost(Duration.ofSeconds(5)).until(() -> second.parked().size() == 1);

    assertThat(second.replay(second.parked().get(0).id())).isTrue();

    // Nothing tells the first bus: its poll finds the message.
    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 2);
    assertThat(recorder.attempts()).containsExactly(1, 2);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> first.parked().isEmpty() && first.depth("q") == 0);
  }

  @Test
  void pollInterval_isHowOftenAnIdleConsumerLooksForMessagesNobodyToldItAbout() throws Exception {
    try (EmbeddedBus often =
            Fixtures.open(
                Files.createDirectories(dir.resolve("often")),
                clock,
                Map.of("poll-interval-ms", "10"));
        EmbeddedBus seldom =
            Fixtures.open(
                Files.createDirectories(dir.resolve("seldom")),
                clock,
                Map.of("poll-interval-ms", "60000"))) {
      seldom.consume("q", new Recorder());
      often.consume("q", new Recorder());

      await().atMost(Duration.ofSeconds(10)).until(() -> ((EmbeddedBus) often).polls("q") >= 20);

      assertThat(((EmbeddedBus) seldom).polls("q"))
          .as("a minute apart: only the first look")
          .isLessThanOrEqualTo(1);
    }
  }

  @Test
  void bothBuses_publishingAtOnce_loseNothing() {
    first.declare("a", Set.of("x.y.created"));
    Recorder recorder = new Recorder();
    first.consume("a", recorder);

    CompletableFuture<Void> one = CompletableFuture.runAsync(() -> publish(first, "first-", 150));
    CompletableFuture<Void> two = CompletableFuture.runAsync(() -> publish(second, "second-", 150));
    CompletableFuture.allOf(one, two).join();

    await().atMost(Duration.ofSeconds(30)).until(() -> Set.copyOf(recorder.ids()).size() == 300);
    await().atMost(Duration.ofSeconds(5)).until(() -> first.depth("a") == 0);
  }

  private static void publish(EmbeddedBus bus, String prefix, int count) {
    for (int i = 0; i < count; i++) bus.publish(message(prefix + i, "x.y.created"));
  }
}
