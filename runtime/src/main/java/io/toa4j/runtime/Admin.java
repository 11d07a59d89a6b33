package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator does with a running context: look at its parked messages and put them back, list
 * what its outboxes sent and deliver it again, see what its outbox has not published yet, ask
 * whether its engines answer, and wait until what its calls caused has been handled.
 *
 * <p>On a context that hosts nothing (a client of a distributed bus, or one opened to manage a
 * context run elsewhere) the parked messages are the bus's, the outboxes are read and marked on the
 * storage for the processes that host their components to publish, and there is no backlog of its
 * own. Thread-safe.
 *
 * <p>About 400 lines because each operator's action is a documented method of the public API, and
 * the settle loop keeps its waits and their reasons beside it; the work itself is elsewhere ({@link
 * Redelivery}, {@link SystemMessages}, the bus's parking).
 */
public final class Admin {
  /**
   * The first pause after a signal whose check still saw work pending: a bus records a verdict just
   * after it.
   */
  static final Duration AFTER_SIGNAL = Duration.ofMillis(1);

  /** The longest pause between checks soon after a signal, while the bus records the verdict. */
  static final Duration AFTER_SIGNAL_MAX = Duration.ofMillis(8);

  /**
   * How long nothing may be pending, with no progress, before the context counts as settled. A
   * broker hands a message to a consumer before the consumer sees it: for that moment no count
   * holds it (RabbitMQ counts ready messages, the consumer those it has begun), and a single check
   * would call the context settled while the message is on the wire.
   */
  static final Duration QUIET = Duration.ofMillis(50);

  /** The longest pause between checks: what no signal covers is seen at least this often. */
  static final Duration FALLBACK = Duration.ofMillis(200);

  private static final Logger LOG = LoggerFactory.getLogger(Admin.class);

  private final Supplier<Bus> bus;
  private final Redelivery redelivery;

  /** Who a replay or a discard is noted as made by when the caller does not say. */
  public static final String UNNAMED = "the operator's face (Admin)";

  private final SystemMessages announced;
  private final Optional<Publisher> publisher;
  private final Optional<Messaging> messaging;
  private final Supplier<Optional<String>> storageHealth;
  private final String probe;
  private final Progress progress;
  private final Function<String, Store> systemStores;
  private final Clock clock;
  private final AtomicLong signalledWakes = new AtomicLong();
  private final AtomicLong timedWakes = new AtomicLong();

  /**
   * @param storageHealth what does not answer in the storage, if anything
   * @param probe a queue whose depth is asked to see that the bus answers
   * @param progress raised by the publisher and the deliveries when work moves on
   * @param announced where a replay or a discard is committed, as an event of {@code
   *     system.messages}, before the bus is asked to do it
   * @param systemStores the store of a label {@code system.<name>}, on the context's storage
   */
  Admin(
      Supplier<Bus> bus,
      Redelivery redelivery,
      SystemMessages announced,
      Optional<Publisher> publisher,
      Optional<Messaging> messaging,
      Supplier<Optional<String>> storageHealth,
      String probe,
      Progress progress,
      Function<String, Store> systemStores,
      Clock clock) {
    this.bus = bus;
    this.redelivery = redelivery;
    this.announced = announced;
    this.progress = progress;
    this.probe = probe;
    this.publisher = publisher;
    this.messaging = messaging;
    this.storageHealth = storageHealth;
    this.systemStores = systemStores;
    this.clock = clock;
  }

  /**
   * The records a part of toa4j around the runtime keeps on this context's storage, beside the
   * components': {@code system.<name>} (a SQLite file under {@code .toa/storage/}, a PostgreSQL
   * schema, MariaDB tables), read, created and replaced by compare-and-swap. The HTTP gateway keeps
   * its identities in {@code system.identities}.
   *
   * @param name a lowercase letter and up to 31 letters or digits
   * @throws IllegalArgumentException for a name that is not one, or that the runtime keeps its own
   *     records under ({@code messages}, {@code attempts})
   */
  public SystemRecords records(String name) {
    String label = SystemStores.label(name);
    if (SystemRecords.RUNTIMES.contains(name)) {
      throw new IllegalArgumentException(
          label
              + " holds the runtime's own records, which only the runtime writes; choose another name");
    }
    return new SystemRecords(name, () -> systemStores.apply(label), clock);
  }

  /** The parked messages of the context's bus, oldest first. */
  public List<Parked> parked() {
    return parking().parked();
  }

  /**
   * The bus's parked messages, reached.
   *
   * @throws UnsupportedOperationException when the bus keeps them where they cannot be reached
   */
  private Bus.Parking parking() {
    Bus opened = bus.get();
    return opened
        .parking()
        .orElseThrow(
            () ->
                new UnsupportedOperationException(
                    opened.describe()
                        + " keeps its parked messages where they cannot be listed, replayed or discarded from here"));
  }

  /** The parked messages that match the filter, oldest first, at most its limit. */
  public List<Parked> parked(ParkedFilter filter) {
    List<Parked> matching = new ArrayList<>();
    for (Parked parked : parked()) {
      if (matching.size() == filter.limit()) break;
      if (filter.matches(parked, operation(parked))) matching.add(parked);
    }
    return matching;
  }

  /**
   * The operation a parked message is delivered to, {@code namespace.name.operation}: a task's own
   * label, or the operation its receiver maps the event to; its queue when the context knows no
   * receiver of it.
   */
  public String operation(Parked parked) {
    return announced.target(parked.queue(), parked.message());
  }

  /**
   * One page of the parked messages that match the filter, oldest first, read in one pass over the
   * bus's list: as an operator's page shows them, with how many there are and how many match, and
   * what is parked by component, operation, code and queue (over all of them, so a page can offer
   * what there is to filter by).
   *
   * @param filter which ones; its limit is not used
   * @param offset how many matching ones come before the page
   * @param size how many the page holds at most, from 1 to 1,000
   */
  public ParkedPage parked(ParkedFilter filter, int offset, int size) {
    if (offset < 0)
      throw new IllegalArgumentException("a page's offset is 0 or more; got " + offset);
    if (size < 1 || size > ParkedPage.MOST)
      throw new IllegalArgumentException(
          "a page of parked messages holds from 1 to " + ParkedPage.MOST + "; got " + size);
    List<Parked> all = parked();
    List<ParkedPage.Row> page = new ArrayList<>();
    SortedMap<String, Long> components = new TreeMap<>();
    SortedMap<String, Long> operations = new TreeMap<>();
    SortedMap<String, Long> codes = new TreeMap<>();
    SortedMap<String, Long> queues = new TreeMap<>();
    int matching = 0;
    for (Parked parked : all) {
      String operation = operation(parked);
      int dot = operation.lastIndexOf('.');
      components.merge(dot < 0 ? operation : operation.substring(0, dot), 1L, Long::sum);
      operations.merge(operation, 1L, Long::sum);
      codes.merge(parked.code(), 1L, Long::sum);
      queues.merge(parked.queue(), 1L, Long::sum);
      if (!filter.matches(parked, operation)) continue;
      if (matching >= offset && page.size() < size) page.add(new ParkedPage.Row(parked, operation));
      matching++;
    }
    return new ParkedPage(
        all.size(), matching, offset, page, components, operations, codes, queues);
  }

  /**
   * Puts a parked message back on its queue, due now, and announces it ({@code
   * system.messages.replayed}); false when there is none with that id. Its record notes the replay
   * as made by {@value #UNNAMED}; {@link #replay(String, String)} names who.
   */
  public boolean replay(String parkedId) {
    return replay(parkedId, UNNAMED);
  }

  /**
   * Puts a parked message back on its queue, as {@link #replay(String)} does, noting in its record
   * who replayed it ({@link #history}).
   *
   * @param by who, in words: the console's identity, the command line's user
   */
  public boolean replay(String parkedId, String by) {
    requireBy(by);
    return find(parkedId).map(p -> replay(p, by)).orElse(false);
  }

  /**
   * Puts the parked messages that match the filter back on their queues, as {@link #replay(String)}
   * does one; answers those that went back.
   */
  public List<Parked> replay(ParkedFilter filter) {
    return replay(filter, UNNAMED);
  }

  /**
   * Puts the parked messages that match the filter back, noting who, as {@link #replay(String,
   * String)} does.
   */
  public List<Parked> replay(ParkedFilter filter, String by) {
    requireBy(by);
    return parked(filter).stream().filter(p -> replay(p, by)).toList();
  }

  /** Puts every parked message back on its queue; answers how many went back. */
  public int replayAll() {
    return replay(ParkedFilter.all()).size();
  }

  /**
   * Removes a parked message for good, keeping the reason (in its {@code system.messages} record,
   * and the event {@code system.messages.discarded}); false when there is none with that id.
   *
   * @throws IllegalArgumentException when the reason is blank
   */
  public boolean discard(String parkedId, String reason) {
    return discard(parkedId, reason, UNNAMED);
  }

  /**
   * Removes a parked message for good, as {@link #discard(String, String)} does, noting in its
   * record who discarded it.
   *
   * @param by who, in words: the console's identity, the command line's user
   * @throws IllegalArgumentException when the reason or who is blank
   */
  public boolean discard(String parkedId, String reason, String by) {
    requireReason(reason);
    requireBy(by);
    return find(parkedId).map(p -> discard(p, reason, by)).orElse(false);
  }

  /**
   * Removes the parked messages that match the filter for good, as {@link #discard(String, String)}
   * does one; answers those removed.
   */
  public List<Parked> discard(ParkedFilter filter, String reason) {
    return discard(filter, reason, UNNAMED);
  }

  /**
   * Removes the parked messages that match the filter, noting who, as {@link #discard(String,
   * String, String)} does.
   */
  public List<Parked> discard(ParkedFilter filter, String reason, String by) {
    requireReason(reason);
    requireBy(by);
    return parked(filter).stream().filter(p -> discard(p, reason, by)).toList();
  }

  /**
   * The journal of a parked message's continuous run, in the order the run asked its steps (at most
   * 1,000): empty for a message to an effect that is not continuous, and for a run that recorded no
   * step. Replaying the message resumes the run from the step that failed: these steps are given
   * back their answers.
   */
  public List<JournaledStep> journal(Parked parked) {
    if (!announced.continuous(parked)) return List.of();
    return journal().steps(Continuity.run(parked.queue(), parked.message().id()), 1000);
  }

  /**
   * Drops the journal of a parked message's continuous run and replays it, so the run starts from
   * the top: every step runs again, live. The steps' calls keep their identities, so a callee's
   * {@code once} still answers those it answered; anything else runs again. False when there is no
   * parked message with that id.
   *
   * @param by who, in words
   */
  public boolean restart(String parkedId, String by) {
    requireBy(by);
    Optional<Parked> parked = find(parkedId);
    if (parked.isEmpty()) return false;
    Parked p = parked.get();
    int dropped =
        announced.continuous(p) ? journal().drop(Continuity.run(p.queue(), p.message().id())) : 0;
    LOG.info(
        "Restarting the continuous run of message {} of {} from the top: {} step(s) dropped, by {}",
        p.message().id(),
        p.queue(),
        dropped,
        by);
    return replay(p, by);
  }

  private Continuity journal() {
    return new Continuity(
        () -> systemStores.apply(SystemStores.label(Continuity.STORE)),
        clock,
        java.util.random.RandomGenerator.getDefault());
  }

  /**
   * What the runtime kept of a parked message in its {@code system.messages} record: its failures
   * (each attempt's time, code and reason, across replays), its last failure's trace (classes and
   * frames only), and who replayed or discarded it and when; empty for a message with no record (a
   * {@code system.messages} event, which is never recorded, or one parked before records kept
   * this).
   */
  public Optional<ParkedHistory> history(Parked parked) {
    return announced.history(parked.message().id(), parked.queue());
  }

  private Optional<Parked> find(String parkedId) {
    return parked().stream().filter(p -> p.id().equals(parkedId)).findFirst();
  }

  private boolean replay(Parked parked, String by) {
    if (SystemMessages.own(parked.message()))
      LOG.info("Replaying message {} of {} (not announced)", parked.message().id(), parked.queue());
    else announced.replayed(parked, by);
    return parking().replay(parked.id());
  }

  private boolean discard(Parked parked, String reason, String by) {
    if (SystemMessages.own(parked.message()))
      LOG.info(
          "Discarding message {} of {} (not announced): {}",
          parked.message().id(),
          parked.queue(),
          reason);
    else announced.discarded(parked, reason, by);
    return parking().discard(parked.id(), reason);
  }

  private static void requireReason(String reason) {
    if (reason == null || reason.isBlank())
      throw new IllegalArgumentException("a discard keeps its reason; give one");
  }

  private static void requireBy(String by) {
    if (by == null || by.isBlank())
      throw new IllegalArgumentException("a replay or a discard keeps who made it; give who");
  }

  /**
   * The newest outbox entries, published or not, of every component or of one ({@code
   * namespace.name}, or {@code name} in the default namespace), newest first: what each write sent
   * and under which message identities. Entries are kept until their retention after publishing
   * ({@code outbox.retention}).
   *
   * @param limit from 1 to 1000
   * @throws IllegalArgumentException when the component is not one of the context's, or keeps no
   *     state
   */
  public List<Outboxed> outbox(Optional<String> component, int limit) {
    return redelivery.recent(component, limit);
  }

  /**
   * Delivers an outbox entry again: every event and task it sent is published again under the same
   * message identity, by a process that hosts its component (this one at once when it does; else
   * within the sweep of one that runs, or when one next starts). A receiver that declares {@code
   * once} answers the repeat from its inbox; any other runs again.
   *
   * @param id an entry's id, as {@link #outbox} lists it
   * @return the component whose entry it is; empty when no component has an entry with that id, and
   *     then nothing changed
   */
  public Optional<String> redeliver(String id) {
    Optional<String> component = redelivery.redeliver(id);
    component.ifPresent(label -> publisher.ifPresent(p -> p.redelivered(label)));
    return component;
  }

  /**
   * Delivers the component's last {@code count} outbox entries again, as {@link #redeliver} does
   * one, oldest first.
   *
   * @param count from 1 to 1000
   * @return the ids of the entries, oldest first: fewer than {@code count} when it has fewer
   * @throws IllegalArgumentException when the component is not one of the context's, or keeps no
   *     state
   */
  public List<String> redeliverLast(String component, int count) {
    List<String> ids = redelivery.redeliverLast(component, count);
    if (!ids.isEmpty()) publisher.ifPresent(p -> p.redelivered(Redelivery.label(component)));
    return ids;
  }

  /**
   * How many outbox entries of the hosted components are not yet published (0 when none is hosted).
   */
  public long backlog() {
    return publisher.map(Publisher::backlog).orElse(0L);
  }

  /**
   * The outbox backlog of every component with an entity, whichever process hosts it: its entries
   * committed and not yet published, counted by the storage (one indexed count per component).
   */
  public SortedMap<String, Long> backlogs() {
    return redelivery.backlogs();
  }

  /**
   * Every queue of the context (each receiver's and each component's task queue, whichever process
   * consumes it) with the messages waiting in it, due or not, as the bus counts them; parked ones
   * are not counted ({@link #parked()}). Empty for a context that hosts nothing.
   */
  public SortedMap<String, Queue> queues() {
    SortedMap<String, Queue> queues = new TreeMap<>();
    messaging.ifPresent(
        m ->
            m.queues()
                .forEach(
                    (name, component) ->
                        queues.put(name, new Queue(name, component, bus.get().depth(name)))));
    return queues;
  }

  /**
   * A queue of the context.
   *
   * @param name its name on the bus: {@code <event label>..<component>} for a receiver, {@code
   *     <component>..tasks} for a component's tasks
   * @param component the component that consumes it
   * @param depth the messages waiting in it, due or not, parked ones excluded
   */
  public record Queue(String name, String component, long depth) {}

  /** Whether the storage and the bus answer: empty when they do, else what does not. */
  public Optional<String> health() {
    Optional<String> storage = storageHealth.get();
    if (storage.isPresent()) return storage;
    try {
      bus.get().depth(probe);
    } catch (RuntimeException e) {
      return Optional.of("the bus does not answer: " + e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * Waits until every event the context's writes announced is published and every message is
   * handled (or parked), at most {@code timeout}. A storage or bus that cannot answer for a while
   * (a server restarting, a connection recovering) is waited for like anything else pending.
   *
   * <p>It re-checks when this process publishes an outbox entry or reaches a delivery's verdict
   * ({@link Progress}). A bus records a verdict just after the handler answers it, and no signal
   * says when, so a check woken by a verdict may still count the message: for {@link #FALLBACK}
   * after a signal it checks again after {@link #AFTER_SIGNAL}, twice as long each time up to
   * {@link #AFTER_SIGNAL_MAX}. Otherwise it checks every {@link #FALLBACK}, which is how it sees
   * what no signal covers: work other processes do, a publish the sweep retries. Nothing pending
   * counts as settled once it stays so for {@link #QUIET} without a signal.
   *
   * <p>While a backlog drains, signals come faster than a check (a count of each outbox and queue)
   * takes: checks that keep finding work pending are spaced at least {@link #AFTER_SIGNAL}, twice
   * as long each time up to {@link #AFTER_SIGNAL_MAX}, signals or not, so that waiting does not
   * take the processor from the work it waits for.
   *
   * @return empty when all is settled; else what is still pending, in words
   */
  public Optional<String> settle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FALLBACK.toNanos();
    long spacing = AFTER_SIGNAL.toNanos();
    long lastSignal = deadline - timeout.toNanos() - FALLBACK.toNanos();
    while (true) {
      long seen = progress.count();
      long checked = System.nanoTime();
      List<String> pending = pending();
      long now = System.nanoTime();
      if (pending.isEmpty()) {
        spacing = AFTER_SIGNAL.toNanos();
        if (now - deadline > 0 || quiet(seen, Math.min(QUIET.toNanos(), deadline - now)))
          return Optional.empty();
        continue;
      }
      if (now - deadline > 0) return Optional.of(String.join("; ", pending));
      try {
        if (progress.await(seen, Math.min(pause, deadline - now))) {
          signalledWakes.incrementAndGet();
          lastSignal = System.nanoTime();
          pause = AFTER_SIGNAL.toNanos();
          long early = Math.min(checked + spacing, deadline) - lastSignal;
          if (early > 0) LockSupport.parkNanos(early);
          spacing = Math.min(spacing * 2, AFTER_SIGNAL_MAX.toNanos());
        } else {
          timedWakes.incrementAndGet();
          boolean recent = System.nanoTime() - lastSignal < FALLBACK.toNanos();
          pause = recent ? Math.min(pause * 2, AFTER_SIGNAL_MAX.toNanos()) : FALLBACK.toNanos();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of(String.join("; ", pending));
      }
    }
  }

  /** Whether nothing is pending after {@code nanos} without a signal since {@code seen}. */
  private boolean quiet(long seen, long nanos) {
    try {
      return !progress.await(seen, nanos) && pending().isEmpty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return pending().isEmpty();
    }
  }

  /** How many times {@link #settle} was woken by a signal of progress, rather than by time. */
  long signalledWakes() {
    return signalledWakes.get();
  }

  /** How many times {@link #settle} woke because its pause ran out. */
  long timedWakes() {
    return timedWakes.get();
  }

  private List<String> pending() {
    List<String> pending = new ArrayList<>();
    try {
      long backlog = backlog();
      if (backlog > 0) pending.add(backlog + " outbox entr(ies) not yet published (events, tasks)");
    } catch (RuntimeException e) { // the storage is away for now: nothing can be said settled
      pending.add("the outbox cannot be read: " + e.getMessage());
    }
    try {
      messaging.ifPresent(m -> pending.addAll(m.pending()));
    } catch (RuntimeException e) { // the bus is away for now, or reconnecting
      pending.add("the queues cannot be counted: " + e.getMessage());
    }
    return pending;
  }
}
