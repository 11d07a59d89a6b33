package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.bus.BusContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What this bus does beyond the contract: its retry queue, parking across buses, closing. */
@Needs(Server.RABBITMQ)
class RabbitBusTest {
  private static final Duration PATIENCE = Duration.ofSeconds(15);
  private final String queue = Broker.uniquePrefix() + "tasks";

  @AfterEach
  void cleanUp() throws Exception {
    Broker.cleanUp(List.of(queue));
  }

  @Test
  void retry_withDelay_waitsInTheRetryQueueAndCountsInDepth() {
    CountDownLatch retried = new CountDownLatch(1);
    try (Bus bus = Broker.open(Clock.systemUTC())) {
      bus.send(queue, BusContract.message("t1", "a.b.op"));
      Bus.Subscription subscription =
          bus.consume(
              queue,
              d -> {
                retried.countDown();
                return new Verdict.Retry(Duration.ofMinutes(10));
              });
      await().atMost(PATIENCE).until(() -> retried.getCount() == 0);
      subscription.close();

      await().atMost(PATIENCE).until(() -> bus.depth(Topology.retryQueue(queue)) == 1);
      assertThat(bus.depth(queue)).as("the queue and its retry queue").isEqualTo(1);
    }
  }

  @Test
  void parked_listedByAnotherBus_isReplayedThereWithItsHeaders() {
    try (Bus first = Broker.open(Clock.systemUTC())) {
      first.send(queue, BusContract.message("t1", "a.b.op"));
      first.consume(queue, d -> new Verdict.Park("SYSTEM", "the database is gone"));
      await().atMost(PATIENCE).until(() -> parkedHere(first).size() == 1);
    }

    try (Bus second = Broker.open(Clock.systemUTC())) {
      Parked parked = parkedHere(second).get(0);
      assertThat(parked.message()).isEqualTo(BusContract.message("t1", "a.b.op"));
      assertThat(second.parking().orElseThrow().replay(parked.id())).isTrue();
      assertThat(second.parking().orElseThrow().replay(parked.id()))
          .as("already replayed")
          .isFalse();
      AtomicReference<Integer> attempt = new AtomicReference<>();
      second.consume(
          queue,
          d -> {
            attempt.set(d.attempt());
            return Verdict.DONE;
          });
      await().atMost(PATIENCE).until(() -> attempt.get() != null && second.depth(queue) == 0);
      assertThat(attempt.get()).isEqualTo(2);
      assertThat(parkedHere(second)).isEmpty();
    }
  }

  @Test
  void subscriptionClose_fromItsOwnHandler_recordsTheVerdict() {
    AtomicReference<Bus.Subscription> subscription = new AtomicReference<>();
    CountDownLatch closedInside = new CountDownLatch(1);
    try (Bus bus = Broker.open(Clock.systemUTC())) {
      bus.send(queue, BusContract.message("t1", "a.b.op"));
      subscription.set(
          bus.consume(
              queue,
              d -> {
                await().atMost(PATIENCE).until(() -> subscription.get() != null);
                subscription.get().close();
                closedInside.countDown();
                return Verdict.DONE;
              }));

      await().atMost(PATIENCE).until(() -> closedInside.getCount() == 0);
      await().atMost(PATIENCE).until(() -> bus.depth(queue) == 0);
    }
  }

  @Test
  void deliveriesSettledTogetherInAnyOrder_areEachAcknowledged_soTheWindowKeepsComing() {
    int window = 4;
    int messages = 10 * window;
    // the window's deliveries are settled at once, in whatever order their threads run: their acks
    // are sent together; one lost would keep a place of the window for good, and the next window
    // could never gather
    CyclicBarrier together = new CyclicBarrier(window);
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    try (RabbitBus bus =
        (RabbitBus) Broker.open(Clock.systemUTC(), Map.of("prefetch", String.valueOf(window)))) {
      for (int i = 0; i < messages; i++) bus.send(queue, BusContract.message("t" + i, "a.b.op"));
      bus.consume(
          queue,
          d -> {
            try {
              together.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
              failed.compareAndSet(null, e);
              return new Verdict.Retry(Duration.ofMinutes(10));
            }
            handled.computeIfAbsent(d.message().id(), id -> new AtomicInteger()).incrementAndGet();
            return Verdict.DONE;
          });

      await()
          .atMost(PATIENCE.multipliedBy(2))
          .until(() -> handled.size() == messages || failed.get() != null);
      assertThat(failed.get()).as("a window that could not gather").isNull();
      assertThat(handled.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
      await().atMost(PATIENCE).until(() -> bus.unacked(queue) == 0);
      assertThat(bus.depth(queue)).isZero();
    }
  }

  @Test
  void verdictNotConfirmedInTime_onALiveChannel_isGivenBack_andTheConsumerKeepsReceiving() {
    int messages = 6;
    Set<String> done = ConcurrentHashMap.newKeySet();
    AtomicInteger retried = new AtomicInteger();
    // the broker cannot confirm a copy within 1 ms: each Retry verdict's copy is "not confirmed" on
    // a channel that stays open; left unacknowledged, two of them would fill the window for good
    try (Bus sender = Broker.open(Clock.systemUTC());
        RabbitBus bus =
            (RabbitBus)
                Broker.open(
                    Clock.systemUTC(), Map.of("prefetch", "2", "confirm-timeout-ms", "1"))) {
      for (int i = 0; i < messages; i++) sender.send(queue, BusContract.message("t" + i, "a.b.op"));
      bus.consume(
          queue,
          d -> {
            if (d.attempt() == 1) {
              retried.incrementAndGet();
              return new Verdict.Retry(Duration.ofMillis(100));
            }
            done.add(d.message().id()); // given back (redelivered), or its copy after all
            return Verdict.DONE;
          });

      await().atMost(PATIENCE.multipliedBy(2)).until(() -> done.size() == messages);
      assertThat(retried.get()).isGreaterThanOrEqualTo(messages);
      await().atMost(PATIENCE).until(() -> bus.unacked(queue) == 0 && bus.depth(queue) == 0);
    }
  }

  @Test
  void confirmTimeout_isNotALostConnection() {
    assertThat(Connections.isLost(new TimeoutException("no confirm within 1 ms"))).isFalse();
    assertThat(Connections.isLost(new java.net.SocketException("Connection reset"))).isTrue();
  }

  private List<Parked> parkedHere(Bus bus) {
    return bus.parking().orElseThrow().parked().stream()
        .filter(p -> p.queue().equals(queue))
        .toList();
  }
}
