package io.toa4j.testkit.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Response;
import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link Bus} keeps, whatever carries its messages; an adapter's test
 * implements this interface and provides {@link #open(Clock)} and {@link #prefix()}:
 *
 * <pre>{@code
 * class MyBusContractTest implements BusContract {
 *   private final String prefix = "contract-" + UUID.randomUUID() + "-";
 *   public Bus open(Clock clock) { return new MyBusProvider().open(settings(clock)); }
 *   public String prefix() { return prefix; }
 * }
 * }</pre>
 *
 * <p><b>Time is real.</b> A distributed bus such as RabbitMQ decides when a delayed message is due
 * by its broker's clock, not by an injected {@link Clock}, so the delays here are short real ones
 * (a few hundred milliseconds, and the one second a bus waits after a handler throws), the clock
 * passed to {@link #open(Clock)} is {@link Clock#systemUTC()}, and every wait is a bounded poll.
 * Tests that move an injected clock belong to the adapters that honour one.
 *
 * <p><b>What it does not ask.</b> Duplicates: a bus may hold a message twice when it was published
 * twice (the runtime's inbox absorbs the repeat), so no test publishes one id twice. Consumers in
 * several processes: some buses refuse them, so each test consumes from one bus at a time.
 *
 * <p>Every test closes the buses it opens. Queue and label names come from {@link #queue} and
 * {@link #label}, which start with {@link #prefix()}, so an adapter whose state outlives a test (a
 * broker) can tell one test's queues from another's, and clean them up.
 */
public interface BusContract {
  /** How long anything that should happen may take before a test fails. */
  Duration PATIENCE = Duration.ofSeconds(15);

  /** How long a test watches for something that should not happen. */
  Duration QUIET = Duration.ofMillis(500);

  /**
   * A new bus over this test's state: a second call in one test sees what the first one's bus
   * stored, as a restarted process would.
   */
  Bus open(Clock clock);

  /** Starts every queue and label name of this test; unique to the test (instance). */
  String prefix();

  /** A queue name of this test. */
  default String queue(String name) {
    return prefix() + name;
  }

  /** An event label of this test. */
  default String label(String name) {
    return prefix() + name;
  }

  /** A message as the runtime makes one: a JSON body and a {@code VERSION} header. */
  static Message message(String id, String label) {
    return new Message(
        id,
        label,
        new Json("{\"id\":\"" + id + "\",\"n\":42}"),
        Map.of("VERSION", "3"));
  }

  @Test
  default void publish_labelBoundToTwoQueues_eachConsumerGetsItOnce() {
    String orders = queue("orders");
    String mail = queue("mail");
    String created = label("order.created");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(orders, Set.of(created));
      bus.declare(mail, Set.of(created, label("order.cancelled")));
      Recorder ordersSeen = new Recorder();
      Recorder mailSeen = new Recorder();
      bus.consume(orders, ordersSeen);
      bus.consume(mail, mailSeen);

      bus.publish(message("e1", created));

      await().atMost(PATIENCE).until(() -> ordersSeen.count() == 1 && mailSeen.count() == 1);
      await().during(QUIET).atMost(PATIENCE).until(() -> ordersSeen.count() + mailSeen.count() == 2);
      assertThat(ordersSeen.first().queue()).isEqualTo(orders);
      assertThat(mailSeen.first().queue()).isEqualTo(mail);
      assertThat(ordersSeen.attempts()).containsExactly(1);
      assertThat(mailSeen.attempts()).containsExactly(1);
    }
  }

  @Test
  default void publish_manyAtOnce_eachGoesToTheQueuesBoundToItsLabel_withItsContent() {
    String orders = queue("orders");
    String mail = queue("mail");
    String created = label("order.created");
    String cancelled = label("order.cancelled");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(orders, Set.of(created));
      bus.declare(mail, Set.of(created, cancelled));
      Recorder ordersSeen = new Recorder();
      Recorder mailSeen = new Recorder();
      bus.consume(orders, ordersSeen);
      bus.consume(mail, mailSeen);

      bus.publish(List.of(message("e1", created), message("e2", cancelled), message("e3", label("order.unbound")), message("e4", created)));

      await().atMost(PATIENCE).until(() -> ordersSeen.count() == 2 && mailSeen.count() == 3);
      await().during(QUIET).atMost(PATIENCE).until(() -> ordersSeen.count() + mailSeen.count() == 5);
      assertThat(ordersSeen.seen()).extracting(seen -> seen.delivery().message().id()).containsExactlyInAnyOrder("e1", "e4");
      assertThat(mailSeen.seen()).extracting(seen -> seen.delivery().message().id()).containsExactlyInAnyOrder("e1", "e2", "e4");
      assertThat(mailSeen.seen()).allSatisfy(seen -> {
        Message sent = message(seen.delivery().message().id(), seen.delivery().message().label());
        assertThat(seen.delivery().message().body()).isEqualTo(sent.body());
      });
      bus.publish(List.of()); // nothing to publish is no error
    }
  }

  @Test
  default void publish_unboundLabel_deliversNothing() {
    String q = queue("a");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(q, Set.of(label("x.created")));
      Recorder seen = new Recorder();
      bus.consume(q, seen);

      bus.publish(message("e1", label("x.deleted")));

      await().during(QUIET).atMost(PATIENCE).until(() -> seen.count() == 0);
      assertThat(bus.depth(q)).isZero();
    }
  }

  @Test
  default void publish_beforeQueueDeclared_isNotDeliveredToIt() {
    String q = queue("a");
    String created = label("x.created");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.publish(message("early", created));
      bus.declare(q, Set.of(created));
      bus.publish(message("late", created));

      assertThat(bus.depth(q)).isEqualTo(1);
    }
  }

  @Test
  default void declare_again_keepsMessagesAndBindsTheNewLabels() {
    String q = queue("a");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(q, Set.of(label("x.created")));
      bus.publish(message("e1", label("x.created")));

      bus.declare(q, Set.of(label("x.created"), label("x.deleted")));
      bus.declare(q, Set.of());
      bus.publish(message("e2", label("x.deleted")));

      assertThat(bus.depth(q)).isEqualTo(2);
    }
  }

  @Test
  default void send_toQueue_isConsumedWithItsContent() {
    String q = queue("tasks");
    Message task = message("t1", label("orders.ship"));
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, task);
      Recorder seen = new Recorder();

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> seen.count() == 1);
      Delivery delivery = seen.first();
      assertThat(delivery.message()).isEqualTo(task);
      assertThat(delivery.queue()).isEqualTo(q);
      assertThat(delivery.attempt()).isEqualTo(1);
    }
  }

  @Test
  default void headers_aTraceContext_travelsUnchangedOnAnEventATaskAndACall() {
    Map<String, String> headers =
        Map.of(
            "VERSION", "3",
            "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "tracestate", "vendor=a:1,other=b");
    String events = queue("events");
    String tasks = queue("tasks");
    String calls = queue("calls");
    Message event = new Message("e1", label("topups.paid"), new Json("{}"), headers);
    Message task = new Message("t1", label("orders.ship"), new Json("{}"), headers);
    Message call = new Message("c1", label("wallets.credit"), new Json("{}"), headers);
    List<Delivery> served = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(events, Set.of(event.label()));
      Recorder seen = new Recorder();
      bus.consume(events, seen);
      bus.consume(tasks, seen);
      bus.serve(calls, d -> {
        served.add(d);
        return new Message(d.message().id(), d.message().label(), new Json("null"), Map.of());
      });

      bus.publish(event);
      bus.send(tasks, task);
      assertThat(bus.request(calls, call, PATIENCE)).isInstanceOf(Response.Answered.class);

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.seen()).extracting(s -> s.delivery().message().headers()).containsOnly(headers);
      assertThat(served).extracting(d -> d.message().headers()).containsExactly(headers);
    }
  }

  @Test
  default void backlog_countsWhatWaitsWhileAConsumerTakes_andNothingWithoutOne() throws InterruptedException {
    String q = queue("tasks");
    try (Bus bus = open(Clock.systemUTC())) {
      assertThat(bus.backlog(q)).as("a queue that does not exist").isEmpty();
      for (int i = 1; i <= 3; i++) bus.send(q, message("t" + i, label("a.op")));
      assertThat(bus.backlog(q)).as("nobody consumes the queue").isEmpty();
      CountDownLatch release = new CountDownLatch(1);
      Recorder seen = new Recorder(d -> {
        try {
          return release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS) ? Verdict.DONE : new Verdict.Retry(Duration.ZERO);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new Verdict.Retry(Duration.ZERO);
        }
      });

      Bus.Subscription subscription = bus.consume(q, seen);
      // held by the consumer or ready to be: all three wait (a delivery on its way may be counted a moment later)
      await().atMost(PATIENCE).until(() -> bus.backlog(q).equals(OptionalLong.of(3)));

      release.countDown();
      await().atMost(PATIENCE).until(() -> seen.count() == 3 && bus.backlog(q).equals(OptionalLong.of(0)));
      subscription.close();
      await().atMost(PATIENCE).until(() -> bus.backlog(q).isEmpty());
    }
  }

  @Test
  default void consume_done_removesTheMessage() {
    String q = queue("tasks");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));
      assertThat(bus.depth(q)).isEqualTo(1);
      Recorder seen = new Recorder();

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> seen.count() == 1 && bus.depth(q) == 0);
      await().during(QUIET).atMost(PATIENCE).until(() -> seen.count() == 1);
      assertThat(bus.depth(q)).isZero();
    }
  }

  @Test
  default void consume_retry_isRedeliveredAfterTheDelayWithTheNextAttempt() {
    String q = queue("tasks");
    Duration delay = Duration.ofMillis(300);
    Recorder seen =
        new Recorder(d -> d.attempt() == 1 ? new Verdict.Retry(delay) : Verdict.DONE);
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.attempts()).containsExactly(1, 2);
      List<Recorder.Seen> both = seen.seen();
      assertThat(Duration.ofNanos(both.get(1).nanos() - both.get(0).nanos()))
          .as("time between the delivery that asked for a retry and the retry")
          .isGreaterThanOrEqualTo(delay);
      assertThat(both.get(1).delivery().message()).isEqualTo(both.get(0).delivery().message());
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);
    }
  }

  @Test
  default void consume_retryWithoutDelay_isRedeliveredAtOnce() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(d -> d.attempt() < 3 ? new Verdict.Retry(Duration.ZERO) : Verdict.DONE);
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> seen.count() == 3 && bus.depth(q) == 0);
      assertThat(seen.attempts()).containsExactly(1, 2, 3);
    }
  }

  @Test
  default void consume_handlerThrows_isRedeliveredLaterWithTheNextAttempt() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(
            d -> {
              if (d.attempt() == 1) throw new IllegalStateException("boom (a test's failure)");
              return Verdict.DONE;
            });
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.attempts()).containsExactly(1, 2);
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);
    }
  }

  @Test
  default void consume_park_isListedWithCodeReasonAndAttempts() {
    String q = queue("tasks");
    Message task = message("t1", label("a.op"));
    Recorder seen =
        new Recorder(
            d ->
                d.attempt() == 1
                    ? new Verdict.Retry(Duration.ZERO)
                    : new Verdict.Park("CONTRACT", "no name"));
    long before = System.currentTimeMillis();
    try (Bus bus = open(Clock.systemUTC())) {
      long parkedBefore = bus.parkedCount(); // other queues' parked messages, on a shared bus
      bus.send(q, task);

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> parkedIn(bus, q).size() == 1);
      Parked parked = parkedIn(bus, q).get(0);
      assertThat(parked.message()).isEqualTo(task);
      assertThat(parked.code()).isEqualTo("CONTRACT");
      assertThat(parked.reason()).isEqualTo("no name");
      assertThat(parked.attempts()).isEqualTo(2);
      assertThat(parked.at()).isBetween(before, System.currentTimeMillis());
      assertThat(bus.depth(q)).as("a parked message is not counted").isZero();
      assertThat(parkedIn(bus, q)).as("listing twice finds it again").hasSize(1);
      assertThat(bus.parkedCount()).as("the count, without listing, includes it").isEqualTo(parkedBefore + 1);
    }
  }

  @Test
  default void replay_parked_isConsumedAgainWithTheNextAttempt() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(d -> d.attempt() == 1 ? new Verdict.Park("SYSTEM", "down") : Verdict.DONE);
    try (Bus bus = open(Clock.systemUTC())) {
      long parkedBefore = bus.parkedCount();
      bus.send(q, message("t1", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(bus, q).size() == 1);
      assertThat(bus.parkedCount()).isEqualTo(parkedBefore + 1);

      assertThat(bus.replay(parkedIn(bus, q).get(0).id())).isTrue();

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.attempts()).containsExactly(1, 2);
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);
      assertThat(parkedIn(bus, q)).isEmpty();
      assertThat(bus.parkedCount()).as("a replayed message is no longer counted").isEqualTo(parkedBefore);
    }
  }

  @Test
  default void firstFailed_keptFromTheFirstFailingVerdict_throughParkAndReplay() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(
            d ->
                switch (d.attempt()) {
                  case 1 -> new Verdict.Retry(Duration.ZERO);
                  case 2 -> new Verdict.Park("SYSTEM", "down");
                  default -> Verdict.DONE;
                });
    long before = System.currentTimeMillis();
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(bus, q).size() == 1);
      assertThat(seen.first().firstFailed()).as("not failed before its first verdict").isEmpty();
      long first = seen.seen().get(1).delivery().firstFailed().orElseThrow();
      assertThat(first).isBetween(before, System.currentTimeMillis());
      Parked parked = parkedIn(bus, q).get(0);
      assertThat(parked.firstFailed()).as("the park keeps the first failure, not its own time").isEqualTo(first);
      assertThat(parked.at()).isGreaterThanOrEqualTo(first);

      assertThat(bus.replay(parked.id())).isTrue();

      await().atMost(PATIENCE).until(() -> seen.count() == 3);
      assertThat(seen.seen().get(2).delivery().firstFailed()).as("a replay keeps it").hasValue(first);
    }
  }

  @Test
  default void discard_parked_removesItForGood() {
    String q = queue("tasks");
    Recorder seen = new Recorder(d -> new Verdict.Park("CONTRACT", "no name"));
    try (Bus bus = open(Clock.systemUTC())) {
      long parkedBefore = bus.parkedCount();
      bus.send(q, message("t1", label("a.op")));
      bus.send(q, message("t2", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(bus, q).size() == 2);
      Parked first = parkedIn(bus, q).stream().filter(p -> p.message().id().equals("t1")).findFirst().orElseThrow();

      assertThat(bus.discard(first.id(), "a test gave up on it")).isTrue();

      assertThat(parkedIn(bus, q)).extracting(p -> p.message().id()).containsExactly("t2");
      assertThat(bus.parkedCount()).isEqualTo(parkedBefore + 1);
      assertThat(bus.depth(q)).as("not put back on its queue").isZero();
      assertThat(bus.discard(first.id(), "again")).as("gone: a second discard finds nothing").isFalse();
      assertThat(bus.replay(first.id())).as("nor can it be replayed").isFalse();
    }
    try (Bus bus = open(Clock.systemUTC())) {
      assertThat(parkedIn(bus, q)).as("for good: not back after a restart").extracting(p -> p.message().id()).containsExactly("t2");
    }
  }

  @Test
  default void discard_unknownId_returnsFalse() {
    try (Bus bus = open(Clock.systemUTC())) {
      assertThat(bus.discard("12345", "no reason")).isFalse();
      assertThat(bus.discard("not an id", "no reason")).isFalse();
    }
  }

  @Test
  default void replay_unknownId_returnsFalse() {
    try (Bus bus = open(Clock.systemUTC())) {
      assertThat(bus.replay("12345")).isFalse();
      assertThat(bus.replay("not an id")).isFalse();
    }
  }

  @Test
  default void close_messagesPending_areDeliveredAfterReopening() {
    String events = queue("events");
    String tasks = queue("tasks");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(events, Set.of(label("x.created")));
      bus.publish(message("e1", label("x.created")));
      bus.send(tasks, message("t1", label("x.op")));
    }

    try (Bus bus = open(Clock.systemUTC())) {
      Recorder eventsSeen = new Recorder();
      Recorder tasksSeen = new Recorder();
      bus.consume(events, eventsSeen);
      bus.consume(tasks, tasksSeen);

      await().atMost(PATIENCE).until(() -> eventsSeen.count() == 1 && tasksSeen.count() == 1);
      assertThat(eventsSeen.first().message().id()).isEqualTo("e1");
      assertThat(tasksSeen.first().message().id()).isEqualTo("t1");
      assertThat(eventsSeen.attempts()).containsExactly(1);
    }
  }

  @Test
  default void publish_concurrentPublishers_everyIdIsHandled() {
    int threads = 4;
    int each = 100;
    String q = queue("events");
    String created = label("x.created");
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(q, Set.of(created));
      bus.consume(
          q,
          d -> {
            handled.computeIfAbsent(d.message().id(), id -> new AtomicInteger()).incrementAndGet();
            return Verdict.DONE;
          });

      List<CompletableFuture<Void>> publishers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String from = "p" + t + "-";
        publishers.add(
            CompletableFuture.runAsync(
                () ->
                    IntStream.range(0, each)
                        .forEach(i -> bus.publish(message(from + i, created)))));
      }
      CompletableFuture.allOf(publishers.toArray(CompletableFuture[]::new)).join();

      await().atMost(PATIENCE.multipliedBy(4)).until(() -> handled.size() == threads * each);
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);
      assertThat(handled.keySet())
          .containsAll(
              IntStream.range(0, threads * each)
                  .mapToObj(i -> "p" + i / each + "-" + i % each)
                  .toList());
    }
  }

  @Test
  default void request_served_isAnsweredWithTheRespondersReply() {
    String q = queue("calls");
    Message call = message("c1", label("wallets.credit"));
    List<Delivery> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Bus bus = open(Clock.systemUTC())) {
      bus.serve(
          q,
          d -> {
            calls.add(d);
            return new Message("r-" + d.message().id(), d.message().label(), new Json("{\"output\":7}"), Map.of());
          });

      Response response = bus.request(q, call, PATIENCE);

      assertThat(response).isInstanceOf(Response.Answered.class);
      Message reply = ((Response.Answered) response).reply();
      assertThat(reply.id()).isEqualTo("r-c1");
      assertThat(reply.body().text()).isEqualTo("{\"output\":7}");
      assertThat(calls).hasSize(1);
      assertThat(calls.get(0).message()).as("the call arrives as sent").isEqualTo(call);
      assertThat(calls.get(0).queue()).isEqualTo(q);
      assertThat(calls.get(0).attempt()).isEqualTo(1);
    }
  }

  @Test
  default void request_nobodyServes_isUnservedAtOnce() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      long start = System.nanoTime();

      Response response = bus.request(q, message("c1", label("wallets.credit")), Duration.ofMinutes(5));

      assertThat(response).isEqualTo(new Response.Unserved(q));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to be told").isLessThan(PATIENCE);
    }
  }

  @Test
  default void request_afterTheResponderClosed_isUnserved() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Subscription serving = bus.serve(q, d -> d.message());
      assertThat(bus.request(q, message("c1", label("a.op")), PATIENCE)).isInstanceOf(Response.Answered.class);

      serving.close();

      await().atMost(PATIENCE).until(() -> bus.request(q, message("c2", label("a.op")), PATIENCE) instanceof Response.Unserved);
    }
  }

  @Test
  default void request_responderSlowerThanTheTimeout_isUnanswered() throws InterruptedException {
    String q = queue("calls");
    CountDownLatch release = new CountDownLatch(1);
    Duration timeout = Duration.ofMillis(300);
    try (Bus bus = open(Clock.systemUTC())) {
      bus.serve(
          q,
          d -> {
            try {
              release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return d.message();
          });
      long start = System.nanoTime();

      Response response = bus.request(q, message("c1", label("a.op")), timeout);

      assertThat(response).isEqualTo(new Response.Unanswered(timeout));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(timeout);
      release.countDown();
    }
  }

  @Test
  default void request_responderThrows_isUnansweredAndTheResponderKeepsServing() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      bus.serve(
          q,
          d -> {
            if (d.message().id().equals("bad")) throw new IllegalStateException("boom (a test's failure)");
            return d.message();
          });

      assertThat(bus.request(q, message("bad", label("a.op")), Duration.ofSeconds(2))).isInstanceOf(Response.Unanswered.class);
      Response next = bus.request(q, message("good", label("a.op")), PATIENCE);

      assertThat(next).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) next).reply().id()).isEqualTo("good");
    }
  }

  @Test
  default void request_concurrentCallers_eachGetsTheAnswerToItsOwnCall() {
    String q = queue("calls");
    int callers = 32;
    try (Bus bus = open(Clock.systemUTC())) {
      bus.serve(q, d -> new Message(d.message().id(), "answer", new Json("\"to " + d.message().id() + "\""), Map.of()));

      List<CompletableFuture<Response>> responses =
          IntStream.range(0, callers)
              .mapToObj(i -> CompletableFuture.supplyAsync(() -> bus.request(q, message("c" + i, label("a.op")), PATIENCE)))
              .toList();

      for (int i = 0; i < callers; i++) {
        Response response = responses.get(i).join();
        assertThat(response).isInstanceOf(Response.Answered.class);
        assertThat(((Response.Answered) response).reply().body().text()).isEqualTo("\"to c" + i + "\"");
      }
    }
  }

  private static List<Parked> parkedIn(Bus bus, String queue) {
    return bus.parked().stream().filter(p -> p.queue().equals(queue)).toList();
  }
}
