package io.toa4j.tck.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
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
 * The behaviour every {@link Bus} keeps, whatever carries its messages: publishing and consuming.
 * An adapter's test implements this interface, and the contract of each further role its bus has
 * ({@link CallsContract}, {@link ParkingContract}), and provides {@link #open(Clock)} and {@link
 * #prefix()}:
 *
 * <pre>{@code
 * class MyBusContractTest implements CallsContract, ParkingContract {
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

  /** The headers of a message in a trace: its W3C trace context, beside the runtime's own. */
  Map<String, String> TRACED =
      Map.of(
          "VERSION", "3",
          "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
          "tracestate", "vendor=a:1,other=b");

  /** A message as the runtime makes one: a JSON body and a {@code VERSION} header. */
  static Message message(String id, String label) {
    return new Message(
        id, label, new Json("{\"id\":\"" + id + "\",\"n\":42}"), Map.of("VERSION", "3"));
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
      await()
          .during(QUIET)
          .atMost(PATIENCE)
          .until(() -> ordersSeen.count() + mailSeen.count() == 2);
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

      bus.publish(
          List.of(
              message("e1", created),
              message("e2", cancelled),
              message("e3", label("order.unbound")),
              message("e4", created)));

      await().atMost(PATIENCE).until(() -> ordersSeen.count() == 2 && mailSeen.count() == 3);
      await()
          .during(QUIET)
          .atMost(PATIENCE)
          .until(() -> ordersSeen.count() + mailSeen.count() == 5);
      assertThat(ordersSeen.seen())
          .extracting(seen -> seen.delivery().message().id())
          .containsExactlyInAnyOrder("e1", "e4");
      assertThat(mailSeen.seen())
          .extracting(seen -> seen.delivery().message().id())
          .containsExactlyInAnyOrder("e1", "e2", "e4");
      assertThat(mailSeen.seen())
          .allSatisfy(
              seen -> {
                Message sent =
                    message(seen.delivery().message().id(), seen.delivery().message().label());
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
  default void headers_aTraceContext_travelsUnchangedOnAnEventAndATask() {
    String events = queue("events");
    String tasks = queue("tasks");
    Message event = new Message("e1", label("topups.paid"), new Json("{}"), TRACED);
    Message task = new Message("t1", label("orders.ship"), new Json("{}"), TRACED);
    try (Bus bus = open(Clock.systemUTC())) {
      bus.declare(events, Set.of(event.label()));
      Recorder seen = new Recorder();
      bus.consume(events, seen);
      bus.consume(tasks, seen);

      bus.publish(event);
      bus.send(tasks, task);

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.seen())
          .extracting(s -> s.delivery().message().headers())
          .containsOnly(TRACED);
    }
  }

  /**
   * A message parked by its consumer's verdict is kept aside: never delivered again by itself, and
   * not counted in its queue's depth. Every bus does this; {@link ParkingContract} asks a bus with
   * {@link Bus#parking()} to list, replay and discard it too.
   */
  @Test
  default void consume_park_isKeptAside_notDeliveredAgainNorCounted() {
    String q = queue("tasks");
    Recorder seen = new Recorder(d -> new Verdict.Park("CONTRACT", "no name"));
    try (Bus bus = open(Clock.systemUTC())) {
      bus.send(q, message("t1", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> seen.count() == 1);
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);

      Duration quiet = Duration.ofMillis(1_500); // past the one second a bus may wait to redeliver
      await()
          .during(quiet)
          .atMost(quiet.plus(PATIENCE))
          .until(() -> seen.count() == 1 && bus.depth(q) == 0);
    }
  }

  /**
   * Each role the bus has is held to its own contract by this test: a bus with {@link Bus#calls()}
   * by {@link CallsContract}, one with {@link Bus#parking()} by {@link ParkingContract}. What a
   * test class implements decides what runs, so a role with no contract run here would go unproven.
   */
  @Test
  default void roles_eachOneTheBusHas_isHeldToItsContractHere() {
    try (Bus bus = open(Clock.systemUTC())) {
      if (bus.calls().isPresent()) {
        assertThat(this)
            .as("%s carries calls: its test implements CallsContract", bus.describe())
            .isInstanceOf(CallsContract.class);
      }
      if (bus.parking().isPresent()) {
        assertThat(this)
            .as(
                "%s reaches its parked messages: its test implements ParkingContract",
                bus.describe())
            .isInstanceOf(ParkingContract.class);
      }
      assertThat(bus.capabilities())
          .as("the same for the bus's whole life")
          .isEqualTo(bus.capabilities());
    }
  }

  @Test
  default void backlog_countsWhatWaitsWhileAConsumerTakes_andNothingWithoutOne()
      throws InterruptedException {
    String q = queue("tasks");
    try (Bus bus = open(Clock.systemUTC())) {
      assertThat(bus.backlog(q)).as("a queue that does not exist").isEmpty();
      for (int i = 1; i <= 3; i++) bus.send(q, message("t" + i, label("a.op")));
      assertThat(bus.backlog(q)).as("nobody consumes the queue").isEmpty();
      CountDownLatch release = new CountDownLatch(1);
      Recorder seen =
          new Recorder(
              d -> {
                try {
                  return release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)
                      ? Verdict.DONE
                      : new Verdict.Retry(Duration.ZERO);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return new Verdict.Retry(Duration.ZERO);
                }
              });

      Bus.Subscription subscription = bus.consume(q, seen);
      // held by the consumer or ready to be: all three wait (a delivery on its way may be counted a
      // moment later)
      await().atMost(PATIENCE).until(() -> bus.backlog(q).equals(OptionalLong.of(3)));

      release.countDown();
      await()
          .atMost(PATIENCE)
          .until(() -> seen.count() == 3 && bus.backlog(q).equals(OptionalLong.of(0)));
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
    Recorder seen = new Recorder(d -> d.attempt() == 1 ? new Verdict.Retry(delay) : Verdict.DONE);
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
}
