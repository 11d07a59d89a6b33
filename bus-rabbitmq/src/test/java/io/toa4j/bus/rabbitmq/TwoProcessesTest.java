package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import io.toa4j.spi.Verdict;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two buses on two connections, as two processes hosting the same component would have. */
@Needs(Server.RABBITMQ)
class TwoProcessesTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private final String queue = Broker.uniquePrefix() + "tasks";

  @AfterEach
  void cleanUp() throws Exception {
    Broker.cleanUp(List.of(queue));
  }

  @Test
  void consume_twoBusesOnOneQueueBothAcking_eachMessageHandledOnceAndBothWork() {
    int messages = 200;
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    AtomicInteger byFirst = new AtomicInteger();
    AtomicInteger bySecond = new AtomicInteger();
    try (Bus first = Broker.open(Clock.systemUTC());
        Bus second = Broker.open(Clock.systemUTC())) {
      first.consume(queue, counting(handled, byFirst));
      second.consume(queue, counting(handled, bySecond));

      for (int i = 0; i < messages; i++) first.send(queue, message("t" + i));

      await().atMost(PATIENCE).until(() -> handled.size() == messages);
      await().atMost(PATIENCE).until(() -> first.depth(queue) == 0 && second.depth(queue) == 0);
      assertThat(handled.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
      assertThat(byFirst.get() + bySecond.get()).isEqualTo(messages);
      assertThat(byFirst.get()).as("handled by the first bus").isPositive();
      assertThat(bySecond.get()).as("handled by the second bus").isPositive();
    }
  }

  @Test
  void consume_connectionDroppedBeforeAck_otherBusGetsItWithHigherAttempt() {
    CountDownLatch handling = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    List<Delivery> seenBySecond = new CopyOnWriteArrayList<>();
    RabbitBus first = (RabbitBus) Broker.open(Clock.systemUTC());
    try (Bus second = Broker.open(Clock.systemUTC())) {
      first.send(queue, message("t1"));
      first.consume(
          queue,
          d -> {
            handling.countDown();
            awaitQuietly(never); // interrupted by the crash; its verdict is lost with it
            return Verdict.DONE;
          });
      await().atMost(PATIENCE).until(() -> handling.getCount() == 0);
      second.consume(queue, recording(seenBySecond));

      first.crash();

      await().atMost(PATIENCE).until(() -> seenBySecond.size() == 1);
      assertThat(seenBySecond.get(0).message().id()).isEqualTo("t1");
      assertThat(seenBySecond.get(0).attempt()).isEqualTo(2);
      await().atMost(PATIENCE).until(() -> second.depth(queue) == 0);
    } finally {
      first.close();
    }
  }

  @Test
  void
      consume_laterDeliveriesAckedWhileAnEarlierIsInHand_theirAcksLeaveItOut_soACrashGivesItToTheOtherBus() {
    int later = 12; // with the one in hand, within the prefetch window of 16
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    Map<String, AtomicInteger> byFirst = new ConcurrentHashMap<>();
    List<Delivery> seenBySecond = new CopyOnWriteArrayList<>();
    RabbitBus first = (RabbitBus) Broker.open(Clock.systemUTC());
    try (Bus second = Broker.open(Clock.systemUTC())) {
      first.send(
          queue,
          message(
              "held")); // the lowest delivery tag: any ack with multiple after it would cover it
      for (int i = 0; i < later; i++) first.send(queue, message("t" + i));
      first.consume(
          queue,
          d -> {
            if (d.message().id().equals("held")) {
              holding.countDown();
              awaitQuietly(never); // interrupted by the crash; its verdict is lost with it
              return Verdict.DONE;
            }
            byFirst.computeIfAbsent(d.message().id(), id -> new AtomicInteger()).incrementAndGet();
            return Verdict.DONE;
          });
      await().atMost(PATIENCE).until(() -> holding.getCount() == 0 && byFirst.size() == later);
      // every ack but the held one's is sent
      await().atMost(PATIENCE).until(() -> first.unacked(queue) == 1);
      second.consume(queue, recording(seenBySecond));

      first.crash();

      await()
          .atMost(PATIENCE)
          .until(() -> seenBySecond.stream().anyMatch(d -> d.message().id().equals("held")));
      Delivery held =
          seenBySecond.stream()
              .filter(d -> d.message().id().equals("held"))
              .findFirst()
              .orElseThrow();
      assertThat(held.attempt()).isEqualTo(2);
      assertThat(byFirst.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
      await().atMost(PATIENCE).until(() -> second.depth(queue) == 0);
    } finally {
      first.close();
    }
  }

  @Test
  void request_servedByAnotherBus_isAnsweredThere() {
    try (Bus caller = Broker.open(Clock.systemUTC());
        Bus host = Broker.open(Clock.systemUTC())) {
      host.calls()
          .orElseThrow()
          .serve(
              queue,
              d ->
                  new Message(
                      d.message().id(),
                      "answer",
                      new io.toa4j.spi.Json("\"from host\""),
                      Map.of()));

      Response response = caller.calls().orElseThrow().request(queue, message("c1"), PATIENCE);

      assertThat(response).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) response).reply().body().text()).isEqualTo("\"from host\"");
    }
  }

  @Test
  void request_manyCallersAtOnce_reuseTheChannelsTheyOpened() throws Exception {
    int callers =
        16; // as many as the host's prefetch, so both sides publish from 16 threads at once
    int each = 30;
    RabbitBus caller = (RabbitBus) Broker.open(Clock.systemUTC());
    RabbitBus host = (RabbitBus) Broker.open(Clock.systemUTC());
    var pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
    try {
      host.serve(queue, d -> d.message());
      List<java.util.concurrent.Future<?>> running = new java.util.ArrayList<>();
      for (int t = 0; t < callers; t++) {
        String from = "c" + t + "-";
        running.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i++) {
                    assertThat(caller.request(queue, message(from + i), PATIENCE))
                        .isInstanceOf(Response.Answered.class);
                  }
                  return null;
                }));
      }
      for (var r : running) r.get(2, TimeUnit.MINUTES);

      // a call's publish waits for its confirm on a runner while its caller already has the answer
      // and
      // calls again, so more publishes than callers may hold a channel at once — at most one per
      // runner, and the pool keeps as many as there are runners: never one per call
      assertThat(caller.channelsOpened())
          .as("channels the caller opened for " + callers * each + " calls")
          .isLessThanOrEqualTo(Channels.KEEP);
      assertThat(host.channelsOpened())
          .as("channels the host opened for its answers")
          .isLessThanOrEqualTo(16);
    } finally {
      pool.shutdownNow();
      caller.close();
      host.close();
    }
  }

  @Test
  void request_theOnlyHostStopped_isUnservedOnceTheCountThatFoundItIsOld() {
    Duration wait = Duration.ofSeconds(1);
    List<String> ran = new CopyOnWriteArrayList<>();
    try (Bus caller = Broker.open(Clock.systemUTC());
        Bus host = Broker.open(Clock.systemUTC())) {
      Bus.Subscription serving =
          host.calls()
              .orElseThrow()
              .serve(
                  queue,
                  d -> {
                    ran.add(d.message().id());
                    return d.message();
                  });
      assertThat(caller.calls().orElseThrow().request(queue, message("c0"), PATIENCE))
          .isInstanceOf(Response.Answered.class);

      serving.close();

      // a call within Calls.SERVED_FOR of the count is sent and waits; the next count finds nobody
      AtomicInteger sent = new AtomicInteger();
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  caller
                          .calls()
                          .orElseThrow()
                          .request(queue, message("c" + sent.incrementAndGet()), wait)
                      instanceof Response.Unserved);
      assertThat(ran).as("calls run").containsExactly("c0");
    }
  }

  @Test
  void request_unservedThenAHostStarts_isAnsweredAtOnce() {
    try (Bus caller = Broker.open(Clock.systemUTC());
        Bus host = Broker.open(Clock.systemUTC())) {
      host.calls().orElseThrow().serve(queue, d -> d.message()).close();
      assertThat(caller.calls().orElseThrow().request(queue, message("c0"), PATIENCE))
          .isEqualTo(new Response.Unserved(queue));

      host.calls().orElseThrow().serve(queue, d -> d.message());

      assertThat(caller.calls().orElseThrow().request(queue, message("c1"), PATIENCE))
          .as("a count that found nobody is not kept")
          .isInstanceOf(Response.Answered.class);
    }
  }

  @Test
  void request_hostDiesHoldingTheCall_anotherHostAnswersTheWaitingCaller() {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    List<Delivery> seenBySecond = new CopyOnWriteArrayList<>();
    RabbitBus first = (RabbitBus) Broker.open(Clock.systemUTC());
    try (Bus caller = Broker.open(Clock.systemUTC());
        Bus second = Broker.open(Clock.systemUTC())) {
      first.serve(
          queue,
          d -> {
            holding.countDown();
            awaitQuietly(never); // interrupted by the crash; no answer is sent
            return d.message();
          });
      var waiting =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> caller.calls().orElseThrow().request(queue, message("c1"), PATIENCE));
      await().atMost(PATIENCE).until(() -> holding.getCount() == 0);
      second
          .calls()
          .orElseThrow()
          .serve(
              queue,
              d -> {
                seenBySecond.add(d);
                return new Message(
                    d.message().id(), "answer", new io.toa4j.spi.Json("\"from second\""), Map.of());
              });

      first.crash();

      Response response = waiting.join();
      assertThat(response).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) response).reply().body().text()).isEqualTo("\"from second\"");
      assertThat(seenBySecond).hasSize(1);
      assertThat(seenBySecond.get(0).message().id())
          .as("the call keeps its identity")
          .isEqualTo("c1");
      assertThat(seenBySecond.get(0).attempt()).isEqualTo(2);
    } finally {
      first.close();
    }
  }

  @Test
  void request_nobodyTakesItInTime_isDroppedInsteadOfRunningLater() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<Delivery> seen = new CopyOnWriteArrayList<>();
    try (Bus caller = Broker.open(Clock.systemUTC());
        Bus host = Broker.open(Clock.systemUTC(), Map.of("prefetch", "1"))) {
      host.calls()
          .orElseThrow()
          .serve(
              queue,
              d -> {
                seen.add(d);
                awaitQuietly(release); // holds the only slot, so the second call waits in the queue
                return d.message();
              });
      var first =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> caller.calls().orElseThrow().request(queue, message("held"), PATIENCE));
      await().atMost(PATIENCE).until(() -> seen.size() == 1);

      Response second =
          caller.calls().orElseThrow().request(queue, message("late"), Duration.ofMillis(300));
      release.countDown();

      assertThat(second).isInstanceOf(Response.Unanswered.class);
      assertThat(first.join()).isInstanceOf(Response.Answered.class);
      await().atMost(PATIENCE).until(() -> host.depth(queue) == 0);
      assertThat(seen)
          .extracting(d -> d.message().id())
          .as("the expired call never ran")
          .containsExactly("held");
    }
  }

  private static Bus.Handler recording(List<Delivery> seen) {
    return d -> {
      seen.add(d);
      return Verdict.DONE;
    };
  }

  private static Bus.Handler counting(Map<String, AtomicInteger> handled, AtomicInteger byBus) {
    return d -> {
      handled.computeIfAbsent(d.message().id(), id -> new AtomicInteger()).incrementAndGet();
      byBus.incrementAndGet();
      return Verdict.DONE;
    };
  }

  private static Message message(String id) {
    return new Message(
        id, "shop.orders.ship", new io.toa4j.spi.Json("{\"id\":\"" + id + "\"}"), Map.of());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
