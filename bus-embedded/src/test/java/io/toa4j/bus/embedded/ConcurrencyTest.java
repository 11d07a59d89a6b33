package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrencyTest {
  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);
  private Bus bus;

  @BeforeEach
  void open() {
    bus = Fixtures.open(dir, clock);
  }

  @AfterEach
  void close() {
    bus.close();
  }

  @Test
  void publish_concurrentPublishersOneConsumer_everyIdHandledAndNoneLost() {
    int threads = 4;
    int each = 250;
    bus.declare("a", Set.of("x.y.created"));
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    bus.consume(
        "a",
        d -> {
          handled.computeIfAbsent(d.message().id(), id -> new AtomicInteger()).incrementAndGet();
          return Verdict.DONE;
        });

    List<CompletableFuture<Void>> publishers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String prefix = "p" + t + "-";
      publishers.add(
          CompletableFuture.runAsync(
              () ->
                  IntStream.range(0, each)
                      .forEach(i -> bus.publish(message(prefix + i, "x.y.created")))));
    }
    CompletableFuture.allOf(publishers.toArray(CompletableFuture[]::new)).join();

    await().atMost(Duration.ofSeconds(60)).until(() -> handled.size() == threads * each);
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("a") == 0);
    assertThat(handled.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
  }

  @Test
  void consume_twoSubscriptionsOnOneQueueWithRetries_neverHandsAMessageToTwoHandlersAtOnce() {
    int messages = 150;
    Set<String> inProgress = ConcurrentHashMap.newKeySet();
    Set<String> done = ConcurrentHashMap.newKeySet();
    AtomicInteger overlaps = new AtomicInteger();
    Bus.Handler handler =
        d -> {
          String id = d.message().id();
          if (!inProgress.add(id)) overlaps.incrementAndGet();
          try {
            Thread.yield(); // give a second handler the chance to show up
            if (d.attempt() < 3) return new Verdict.Retry(Duration.ZERO);
            done.add(id);
            return Verdict.DONE;
          } finally {
            inProgress.remove(id);
          }
        };
    bus.consume("q", handler);
    bus.consume("q", handler);

    for (int i = 0; i < messages; i++) bus.send("q", message("t" + i, "x.y.op"));

    await().atMost(Duration.ofSeconds(60)).until(() -> done.size() == messages);
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
    assertThat(overlaps).hasValue(0);
  }

  @Test
  void consume_manyDue_neverMoreInFlightThanTheLimit() {
    bus.close();
    bus = Fixtures.open(dir, clock, Map.of(Tuning.MAX_IN_FLIGHT, "3"));
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Set<String> done = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 40; i++) bus.send("q", message("t" + i, "x.y.op"));

    bus.consume(
        "q",
        (Delivery d) -> {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          Thread.yield();
          running.decrementAndGet();
          done.add(d.message().id());
          return Verdict.DONE;
        });

    await().atMost(Duration.ofSeconds(30)).until(() -> done.size() == 40);
    assertThat(most.get()).isBetween(1, 3);
  }
}
