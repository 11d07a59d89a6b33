package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.OwnerOnly;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Response;
import io.toa4j.spi.Verdict;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded bus over {@code <stateDirectory>/bus.db}: see {@link Deliveries} for claiming and
 * the module's README for the design. Thread-safe.
 */
final class EmbeddedBus implements Bus, Bus.Calls, Bus.Parking {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBus.class);
  static final String FILE = "bus.db";
  static final String CONSUMER_LOCK = "bus.consumer.lock";

  private final Database db;
  private final MessageTable table;
  private final Deliveries deliveries;
  private final Tuning tuning;
  private final Clock clock;
  private final ConsumerLock consumerLock;
  private final ExecutorService handlers = HandlerThreads.create();
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Responders responders = new Responders(handlers);
  private final AtomicLong handedFirst = new AtomicLong();

  /**
   * How {@link #close} waits for a subscription's handlers; a test's may throw where the wait
   * would.
   */
  private volatile Idling idling = Subscriber::awaitIdle;

  /** Waits for a subscription's handlers until a deadline of {@link System#nanoTime}. */
  @FunctionalInterface
  interface Idling {
    void awaitIdle(Subscriber subscriber, long deadline);
  }

  EmbeddedBus(Path stateDirectory, Tuning tuning, Clock clock) {
    try {
      OwnerOnly.folder(stateDirectory, LOG::warn);
    } catch (UncheckedIOException e) {
      handlers.shutdown();
      throw new UncheckedIOException(
          "Cannot create the bus's folder " + stateDirectory + ": " + e.getCause(), e.getCause());
    }
    this.tuning = tuning;
    this.clock = clock;
    this.consumerLock = new ConsumerLock(stateDirectory.resolve(CONSUMER_LOCK));
    try {
      this.db = Database.open(stateDirectory.resolve(FILE), tuning.busyTimeout());
    } catch (RuntimeException e) {
      handlers.shutdown();
      throw e;
    }
    this.table = new MessageTable(db);
    this.deliveries = new Deliveries(table, clock);
  }

  @Override
  public void declare(String queue, Set<String> labels) {
    requireName(queue, "queue");
    Objects.requireNonNull(labels, "labels").forEach(label -> requireName(label, "label"));
    table.declare(queue, labels, clock.millis());
  }

  @Override
  public void publish(Message event) {
    publish(List.of(Objects.requireNonNull(event, "event")));
  }

  /**
   * {@inheritDoc}
   *
   * <p>A message goes to each queue bound to its label that does not hold its id already, as when
   * it is stored first. A message for a subscription of this bus that has room and no backlog is
   * handed to a handler before it is stored, and the publish waits up to {@code hand-off-wait-ms}
   * (100) in all for room and for the verdicts: a message handled {@code Done} in time is never
   * written; one retried or parked is stored as it stands, its attempt counted; one still being
   * handled is stored claimed, and its verdict is recorded when it comes. Messages for queues
   * without such room are stored pending. All it stores goes in one transaction, after the
   * verdicts. With {@code hand-off-wait-ms} 0 it stores first, as {@link #republish} does.
   */
  @Override
  public void publish(List<Message> events) {
    publish(events, true);
  }

  /**
   * {@inheritDoc} In one transaction, before any handler sees them. A message for a subscription of
   * this bus that has room and no backlog is stored claimed, its first attempt counted, and goes
   * straight to a handler: no poll, and no transaction of its own to count the attempt.
   */
  @Override
  public void republish(List<Message> events) {
    publish(events, false);
  }

  private void publish(List<Message> events, boolean handFirst) {
    Objects.requireNonNull(events, "events")
        .forEach(event -> Objects.requireNonNull(event, "event"));
    if (events.isEmpty()) return;
    if (handFirst && !subscribers.isEmpty() && !tuning.handOffWait().isZero()) {
      handFirst(events);
      return;
    }
    Map<Subscriber, Integer> reserved = new HashMap<>();
    for (Subscriber s : subscribers) {
      int taken = s.reserve(events.size());
      if (taken > 0) reserved.put(s, taken);
    }
    storeFirst(events, reserved);
  }

  /** Stores every message in one transaction, those with room claimed and handed to a handler. */
  private void storeFirst(List<Message> events, Map<Subscriber, Integer> reserved) {
    Map<String, Integer> room = new HashMap<>();
    reserved.forEach((s, taken) -> room.merge(s.queue(), taken, Integer::sum));
    MessageTable.Stored stored;
    try {
      stored = deliveries.publish(events, room);
    } catch (RuntimeException | Error e) {
      reserved.forEach(Subscriber::giveBack);
      throw e;
    }
    // each claim to a subscription of its queue that took room for it; the room left is given back
    for (Claim claim : stored.claimed()) {
      Subscriber to = take(reserved, claim.delivery().queue());
      if (to != null) to.hand(claim);
    }
    reserved.forEach(Subscriber::giveBack);
    wake(stored.pending());
  }

  /**
   * Hands each message to a subscription of its queue with room, waiting up to the tuning's
   * hand-off wait in all for room and for the verdicts; then stores in one transaction what is
   * left: the messages no subscription took (pending), and those whose verdict was not {@code Done}
   * in time, as they stand.
   */
  private void handFirst(List<Message> events) {
    long deadline = System.nanoTime() + tuning.handOffWait().toNanos();
    Map<String, List<String>> destinations = table.destinations(events);
    Set<String> seen = new HashSet<>(); // an id twice in one publish goes once to each queue
    List<MessageTable.Row> rows = new ArrayList<>();
    List<HandOff> holders =
        new ArrayList<>(); // per row: the hand-off of a row stored claimed, else null
    List<HandOff> running = new ArrayList<>();
    for (Message event : events) {
      for (String queue : destinations.getOrDefault(event.id(), List.of())) {
        if (!seen.add(queue + "\u0000" + event.id())) continue;
        Subscriber to = roomFor(queue, deadline);
        HandOff handOff = new HandOff(new Delivery(event, queue, 1));
        if (to != null && to.hand(handOff)) {
          running.add(handOff);
        } else {
          rows.add(MessageTable.Row.pending(event, queue, deliveries.now()));
          holders.add(null);
        }
      }
    }
    handedFirst.addAndGet(running.size());
    Set<String> pending = new HashSet<>();
    rows.forEach(row -> pending.add(row.queue()));
    for (HandOff handOff : running) {
      Delivery d = handOff.delivery();
      Optional<Verdict> verdict = handOff.await(deadline);
      long now = deliveries.now();
      if (verdict.isEmpty()) {
        rows.add(MessageTable.Row.handling(d.message(), d.queue(), now));
        holders.add(handOff);
      } else if (verdict.get() instanceof Verdict.Retry retry) {
        rows.add(
            MessageTable.Row.retried(
                d.message(), d.queue(), Deliveries.dueAfter(now, retry.delay()), now));
        holders.add(null);
      } else if (verdict.get() instanceof Verdict.Park park) {
        rows.add(MessageTable.Row.parked(d.message(), d.queue(), park.code(), park.reason(), now));
        holders.add(null);
      }
    }
    for (Subscriber s : subscribers) if (pending.contains(s.queue())) s.behind();
    if (!rows.isEmpty()) storeAfter(rows, holders);
    wake(pending);
  }

  /**
   * A subscription of the queue that took room for one message: one with room now, else the first,
   * once a handler of it finishes before the deadline; null when none did, or none may (a backlog).
   */
  private Subscriber roomFor(String queue, long deadline) {
    Subscriber first = null;
    for (Subscriber s : subscribers) {
      if (!s.queue().equals(queue)) continue;
      if (s.reserve(1) == 1) return s;
      if (first == null) first = s;
    }
    return first != null && first.reserveWithin(deadline) ? first : null;
  }

  /** Stores what the verdicts left to store; hands the rows stored claimed to their hand-offs. */
  private void storeAfter(List<MessageTable.Row> rows, List<HandOff> holders) {
    List<Long> seqs;
    try {
      seqs = deliveries.store(rows);
    } catch (RuntimeException | Error e) {
      holders.forEach(
          h -> {
            if (h != null) h.dropped();
          });
      throw e;
    }
    for (int i = 0; i < rows.size(); i++) {
      HandOff holder = holders.get(i);
      if (holder == null) continue;
      if (seqs.get(i)
          == null) { // the queue held the message already: that row is delivered as any other
        holder.dropped();
        continue;
      }
      Claim claim = new Claim(seqs.get(i), holder.delivery());
      holder.stored(claim).ifPresent(verdict -> deliveries.settle(claim, verdict));
    }
  }

  /**
   * A subscription of the queue with room taken and left, its room counted down by one; null when
   * none.
   */
  private static Subscriber take(Map<Subscriber, Integer> reserved, String queue) {
    for (Map.Entry<Subscriber, Integer> r : reserved.entrySet()) {
      if (r.getValue() > 0 && r.getKey().queue().equals(queue)) {
        r.setValue(r.getValue() - 1);
        return r.getKey();
      }
    }
    return null;
  }

  @Override
  public void send(String queue, Message message) {
    requireName(queue, "queue");
    Objects.requireNonNull(message, "message");
    if (table.send(queue, message, clock.millis())) wake(List.of(queue));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first call takes this bus file's consumer lock, held until the bus closes; it fails
   * while another bus on the same file holds it. Several subscriptions of one bus may share a
   * queue: a message is handed to one of them at a time.
   */
  @Override
  public synchronized Subscription consume(String queue, Handler handler) {
    requireName(queue, "queue");
    Objects.requireNonNull(handler, "handler");
    if (closed.get()) throw new Database.Closed(db.file());
    consumerLock.acquire();
    Subscriber subscriber =
        new Subscriber(queue, handler, deliveries, handlers, tuning, subscribers::remove);
    subscribers.add(subscriber);
    subscriber.start();
    return subscriber;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reaches only the responders of this bus object, in memory: the embedded bus is consumed by
   * one process, which hosts every component. A responder that fails makes the call unanswered at
   * once.
   */
  @Override
  public Response request(String queue, Message call, Duration timeout) {
    requireName(queue, "queue");
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(timeout, "timeout");
    if (closed.get()) throw new Database.Closed(db.file());
    return responders.request(queue, call, timeout);
  }

  /** {@inheritDoc} In memory, for callers of this bus object only; see {@link #request}. */
  @Override
  public Subscription serve(String queue, Responder responder) {
    requireName(queue, "queue");
    Objects.requireNonNull(responder, "responder");
    if (closed.get()) throw new Database.Closed(db.file());
    return responders.serve(queue, responder);
  }

  /**
   * {@inheritDoc} Hands first ({@link #publish(List)}) unless its hand-off wait is zero; not
   * distributed: one process consumes the file and hosts every component.
   */
  @Override
  public Set<Capability> capabilities() {
    return tuning.handOffWait().isZero() ? Set.of() : Set.of(Capability.HANDS_FIRST);
  }

  @Override
  public Optional<Calls> calls() {
    return Optional.of(this);
  }

  @Override
  public Optional<Parking> parking() {
    return Optional.of(this);
  }

  @Override
  public List<Parked> parked() {
    return table.parked();
  }

  @Override
  public long parkedCount() {
    return table.parkedCount();
  }

  @Override
  public boolean replay(String parkedId) {
    Optional<String> queue = seq(parkedId).flatMap(seq -> table.replay(seq, clock.millis()));
    queue.ifPresent(q -> wake(List.of(q)));
    return queue.isPresent();
  }

  /**
   * {@inheritDoc} The row is deleted; the reason is logged at INFO with the message's queue and id.
   */
  @Override
  public boolean discard(String parkedId, String reason) {
    Objects.requireNonNull(reason, "reason");
    Optional<String> gone = seq(parkedId).flatMap(table::discard);
    gone.ifPresent(
        what ->
            LOG.info("Parked message {} discarded (queue and id: {}): {}", parkedId, what, reason));
    return gone.isPresent();
  }

  @Override
  public long depth(String queue) {
    return table.depth(queue);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The queue's stored messages while a subscription of this bus consumes it.
   */
  @Override
  public OptionalLong backlog(String queue) {
    if (subscribers.stream().noneMatch(s -> s.queue().equals(queue))) return OptionalLong.empty();
    return OptionalLong.of(table.depth(queue));
  }

  @Override
  public String describe() {
    return "embedded bus at " + db.file();
  }

  /**
   * Stops every subscription, waits up to the close timeout (in all) for handlers in progress, then
   * closes the file. A verdict that comes later is not recorded: its message comes again.
   */
  @Override
  public synchronized void close() {
    if (!closed.compareAndSet(false, true)) return;
    try {
      subscribers.forEach(Subscriber::stop);
      long deadline = System.nanoTime() + tuning.closeTimeout().toNanos();
      Idling waiting = idling;
      subscribers.forEach(s -> waiting.awaitIdle(s, deadline));
      subscribers.clear();
    } finally {
      // whatever the steps above threw, an Error included: the file's connections are closed, the
      // handlers stop and the file's consumer lock is given back, so that the next process may
      // consume
      try {
        db.close();
      } finally {
        try {
          handlers.shutdownNow(); // interrupts the handlers that outlived the wait
        } finally {
          consumerLock.release();
        }
      }
    }
  }

  /** Replaces how {@link #close} waits for the handlers (for tests: a wait that throws). */
  void idling(Idling idling) {
    this.idling = idling;
  }

  /** How many times this bus's consumers of the queue have looked for messages (for tests). */
  long polls(String queue) {
    return subscribers.stream()
        .filter(s -> s.queue().equals(queue))
        .mapToLong(Subscriber::polls)
        .sum();
  }

  /** How many messages were handed to a handler before they were stored (for tests). */
  long handedFirst() {
    return handedFirst.get();
  }

  /** How many messages were claimed as they were published (for tests). */
  long claimedAsPublished() {
    return deliveries.claimedAsStored();
  }

  /** How many verdicts handlers have handed over (for tests). */
  long verdictsHanded() {
    return deliveries.handed();
  }

  /** How many of the verdicts handed over are written, or were given up (for tests). */
  long verdictsDone() {
    return deliveries.done();
  }

  /** How many transactions have recorded verdicts (for tests). */
  long verdictTransactions() {
    return deliveries.transactions();
  }

  private void wake(Collection<String> queues) {
    for (Subscriber s : subscribers) {
      if (queues.contains(s.queue())) s.wake();
    }
  }

  private static Optional<Long> seq(String parkedId) {
    try {
      return Optional.of(Long.parseLong(Objects.requireNonNull(parkedId, "parkedId")));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static void requireName(String name, String what) {
    Objects.requireNonNull(name, what);
    if (name.isBlank()) throw new IllegalArgumentException("A " + what + " name must not be blank");
  }
}
