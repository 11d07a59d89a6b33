package io.toa4j.test.core;

import io.toa4j.bus.embedded.EmbeddedBusProvider;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The bus of a context under test: the embedded bus, seen through a wrapper that keeps what the kit
 * asserts and explains. It records every event published (the announced events, in the order they
 * reached the bus), the endpoint of every task delivered, and the last verdict of every delivery
 * that is to come again after a delay, so that a context that does not settle names the messages
 * waiting for the test clock.
 *
 * <p>Every delivery of a receiver or a task passes through {@link Observed#consume}, which says
 * what is being handled to {@link Causes} — as a repeat when the same message was handled on the
 * same queue before. When {@link Repeats} picks it (every one in twice mode, those a seed picks in
 * crash mode), it hands a delivery the handler handled ({@link Verdict.Done}) to the handler again,
 * as the next attempt, before the bus hears the verdict: what a crash between the commit and the
 * acknowledgement makes the bus do. The bus then acts on the second verdict. One per context under
 * test; thread-safe.
 */
final class KitBus implements BusProvider {
  /** The engine's name as the kit's builder states it. */
  static final String NAME = "toa-test";

  /** How the name of a component's task queue ends ({@code billing.wallets..tasks}). */
  private static final String TASKS = "..tasks";

  /** A delivery that failed for now and comes again when its delay has passed by the test clock. */
  record Waiting(String queue, Message message, int attempt, Duration delay, long failedAt) {}

  private final BusProvider embedded = new EmbeddedBusProvider();
  private final Clock clock;
  private final Causes causes;
  private final Repeats repeats;
  private final List<Message> published = new CopyOnWriteArrayList<>();
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  private final Set<String> consumed = ConcurrentHashMap.newKeySet();
  private final Set<String> tasks = ConcurrentHashMap.newKeySet();
  private final Set<String> handled = ConcurrentHashMap.newKeySet();
  private volatile Bus opened;

  /**
   * @param causes where each delivery handed to the runtime is said
   * @param repeats which deliveries handled are handed to the handler again
   */
  KitBus(Clock clock, Causes causes, Repeats repeats) {
    this.clock = clock;
    this.causes = causes;
    this.repeats = repeats;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<Bus.Capability> capabilities() {
    return embedded.capabilities();
  }

  @Override
  public Bus open(BusSettings settings) {
    Bus bus = new Observed(embedded.open(settings));
    opened = bus;
    return bus;
  }

  /**
   * Whether nothing can move until the test clock does: the outbox is empty, some delivery waits
   * for a retry due later by the clock, and every message in a consumed queue is one of those.
   */
  boolean stalled(long backlog) {
    Bus bus = opened;
    if (bus == null || backlog > 0) return false;
    long now = clock.millis();
    Map<String, Long> later = new LinkedHashMap<>();
    for (Waiting w : waiting.values()) {
      if (w.failedAt() + w.delay().toMillis() > now) later.merge(w.queue(), 1L, Long::sum);
    }
    if (later.isEmpty()) return false;
    for (String queue : consumed) {
      if (bus.depth(queue) != later.getOrDefault(queue, 0L)) return false;
    }
    return true;
  }

  /**
   * Every event published so far, in the order it reached the bus; one published again appears
   * again.
   */
  List<Message> published() {
    return List.copyOf(published);
  }

  /** The endpoints of the tasks delivered so far, each once. */
  Set<String> tasks() {
    return Set.copyOf(tasks);
  }

  /** The deliveries that failed for now and wait for their delay, by queue and message. */
  List<Waiting> waiting() {
    return new ArrayList<>(new LinkedHashMap<>(waiting).values());
  }

  /**
   * What a delivery's verdict says about it: waiting for a retry, or done with (handled or parked).
   */
  private void observe(Delivery delivery, Verdict verdict) {
    String key = delivery.queue() + " " + delivery.message().id();
    if (verdict instanceof Verdict.Retry retry) {
      waiting.put(
          key,
          new Waiting(
              delivery.queue(),
              delivery.message(),
              delivery.attempt(),
              retry.delay(),
              clock.millis()));
    } else {
      waiting.remove(key);
    }
  }

  /** The embedded bus, with what it publishes and the verdicts it is given observed. */
  private final class Observed implements Bus {
    private final Bus bus;

    Observed(Bus bus) {
      this.bus = bus;
    }

    @Override
    public void declare(String queue, Set<String> labels) {
      bus.declare(queue, labels);
    }

    @Override
    public void publish(Message event) {
      bus.publish(event);
      published.add(event);
    }

    @Override
    public void send(String queue, Message message) {
      bus.send(queue, message);
    }

    @Override
    public Subscription consume(String queue, Handler handler) {
      consumed.add(queue);
      return bus.consume(
          queue,
          delivery -> {
            Message message = delivery.message();
            Optional<String> from = Optional.of(delivery.queue());
            String key = delivery.queue() + " " + message.id();
            if (delivery.queue().endsWith(TASKS)) tasks.add(message.label());
            Verdict verdict =
                causes.under(
                    new Causes.Cause(from, message.label(), handled.contains(key)),
                    () -> handler.handle(delivery));
            boolean done = verdict instanceof Verdict.Done;
            if (done) handled.add(key);
            if (!done
                || !repeats.beforeAcknowledgement(
                    delivery.queue(), message.label(), message.id())) {
              observe(delivery, verdict);
              return verdict;
            }
            Delivery again = new Delivery(message, delivery.queue(), delivery.attempt() + 1);
            Verdict second =
                causes.under(
                    new Causes.Cause(from, message.label(), true), () -> handler.handle(again));
            observe(again, second);
            return second;
          });
    }

    @Override
    public Set<Capability> capabilities() {
      return bus.capabilities();
    }

    /** The embedded bus's own: calls and parked messages are not observed. */
    @Override
    public Optional<Calls> calls() {
      return bus.calls();
    }

    @Override
    public Optional<Parking> parking() {
      return bus.parking();
    }

    @Override
    public long depth(String queue) {
      return bus.depth(queue);
    }

    @Override
    public String describe() {
      return bus.describe();
    }

    @Override
    public void close() {
      bus.close();
    }
  }
}
