package io.toa4j.runtime;

import io.opentelemetry.context.Context;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Combiner;
import io.toa4j.spi.Message;
import io.toa4j.spi.OutageLog;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Publishes outbox entries — the events of a committed write and the tasks its run sent: each entry
 * right after its commit, by the process that committed it, and every entry left unpublished (a
 * crash, a failed publish) by a sweep that claims it once the committer's claim has ended. An entry
 * is marked published only after all its messages are durably on the bus, so a process killed at
 * any instant loses no event or task and may publish one twice, under the same identity.
 *
 * <p>Which stores are swept: those of the components that announce consumed events, every second;
 * those of the other hosted components only once one is seen holding entries (tasks): committed
 * here, or found by a probe — one read of one unpublished entry — at start and every {@link
 * #CLAIM_MILLIS} after. So a component that neither announces nor sends pays one indexed read every
 * seven seconds and no write, and another process's entries it left behind are found within the
 * time they stay claimed.
 *
 * <p>Publishing is combined: the entries a component commits join its line of committed entries,
 * which one drain at a time publishes in commit order, the events of all the entries waiting in one
 * publish ({@link Bus#publish(List)}: one transaction of the embedded bus, one wait for RabbitMQ's
 * confirms). A drain that finds fewer than {@value #LINGER_BELOW} entries waiting first waits 1 ms
 * for more, so entries committed a few at a time are published several together too. Under load a
 * publish carries many entries, and one publisher thread per component serves them, off the
 * callers' path.
 *
 * <p>Marks are combined: an entry whose messages are on the bus joins its component's marks, and a
 * publish that finds no mark being written starts a task that writes every waiting one in one
 * statement, at most {@value #BATCH} at a time, while publishing goes on; when fewer than {@value
 * #LINGER_BELOW} wait, it first waits 4 ms for more, so entries published one by one are marked a
 * few at a time too. So under load a storage commits one mark for many entries instead of one each,
 * off the callers' path; an entry whose mark a crash lost is published again by a sweep, as one
 * whose publish failed is.
 *
 * <p>Published entries are removed after the context's retention; unpublished ones never are.
 * Thread-safe.
 *
 * <p>Over 400 lines because the drain, the marks, the sweep and the claims share one component's
 * state (its line, its in-flight set, its outage logs) and must agree on it at every step; the
 * protocols that stand alone do ({@link Combiner} for the drain and the marks, the store's claims
 * and {@code release} for what the sweep takes).
 */
final class Publisher implements Engine.Outbox, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
  private static final int BATCH = 200;

  /**
   * The most changes kept as trees for entries waiting to be published; beyond, their text is read.
   */
  private static final int BUILT = 4096;

  private static final long SWEEP_MILLIS = 1000;

  /**
   * How long a thread about to write fewer than {@link #LINGER_BELOW} marks waits for more first.
   * Entries stay unpublished that much longer; none is published twice for it (they stay claimed).
   */
  private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

  private static final int LINGER_BELOW = 32;

  /**
   * How long a drain that finds fewer than {@link #LINGER_BELOW} entries waiting waits for more
   * before it publishes them: each publish pays the bus's read of where its events go and a
   * hand-off per consumer, whatever it carries, and each drain wakes a thread. Every event is that
   * much later; no caller waits for it.
   */
  private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * How long an entry belongs to one process: its committer, which publishes it at once, or the
   * sweep that claimed it. Another process's sweep takes it only after that, so two processes never
   * publish one entry at the same time, and a dead process's entries wait this long. It outlasts a
   * publish (RabbitMQ's confirm timeout, 5 s) with room for the mark; with the next sweep of
   * another process (every second), an entry of a process cut off from both servers is published
   * within 8 s of the cut (docs/faults.md, "A silent peer").
   */
  static final long CLAIM_MILLIS = 7_000;

  private static final String SWEEP_FAILED =
      "Outbox sweep of {} failed; it is tried again in {} ms";
  private static final String PROBE_FAILED =
      "Outbox probe of {} failed; it is tried again in {} ms";

  private final Bus bus;
  private final List<Component> announcing;
  private final List<Component> quiet;
  private final Set<String> sending = ConcurrentHashMap.newKeySet();
  private final Set<String> consumed;
  private final Clock clock;
  private final long retentionMillis;
  private final Progress progress;
  private final Tracing tracing;
  private final AtomicLong sweeps = new AtomicLong();
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * Per swept component, the storage side (claims, probes, marks) and the bus side (publishing): a
   * server out of reach is one WARN and one INFO of the side it stops, not a line per entry and
   * sweep. Apart, so that a sweep that works on the storage does not end an outage of the bus.
   */
  private final Map<String, OutageLog> outages = new ConcurrentHashMap<>();

  private final Map<String, OutageLog> publishing = new ConcurrentHashMap<>();
  private final Map<String, Marks> marks = new ConcurrentHashMap<>();
  private final Map<String, Committed> committed = new ConcurrentHashMap<>();

  /**
   * The changes of entries committed here, as the engine built them, by entry id, until the first
   * attempt to publish the entry takes it: publishing reads the change's text only for entries it
   * finds in the store.
   */
  private final Map<String, ObjectNode> built = new ConcurrentHashMap<>();

  private final ExecutorService immediate = Threads.perTask("toa-publish");
  private final ScheduledExecutorService sweeper =
      Executors.newSingleThreadScheduledExecutor(Threads.daemons("toa-sweep"));

  /**
   * @param hosted the components this process hosts: those with a store have their entries
   *     published here
   * @param consumed the labels of the events someone in the context consumes
   * @param progress signalled each time an entry is marked published
   * @param tracing records a span per message published or sent, in the trace its entry keeps
   */
  Publisher(
      Bus bus,
      Collection<Component> hosted,
      Set<String> consumed,
      Clock clock,
      long retentionMillis,
      Progress progress,
      Tracing tracing) {
    this.progress = progress;
    this.tracing = tracing;
    this.bus = bus;
    this.announcing = hosted.stream().filter(c -> c.store().isPresent() && c.announces()).toList();
    this.quiet = hosted.stream().filter(c -> c.store().isPresent() && !c.announces()).toList();
    this.consumed = Set.copyOf(consumed);
    this.clock = clock;
    this.retentionMillis = retentionMillis;
  }

  /**
   * Probes the stores of the components that announce nothing for entries a previous run left, so
   * that {@link #backlog()} counts them from the start; then sweeps at once, and every second.
   */
  void start() {
    probe();
    sweeper.scheduleWithFixedDelay(this::sweep, 0, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  public long claimedUntil(long committed) {
    return committed + CLAIM_MILLIS;
  }

  @Override
  public void committed(Component component, OutboxEntry entry, Optional<ObjectNode> change) {
    if (!entry.tasks().isEmpty() && !component.announces()) sending.add(component.label());
    if (change.isPresent() && built.size() < BUILT) built.put(entry.id(), change.get());
    committed.computeIfAbsent(component.label(), label -> new Committed(component)).add(entry);
  }

  /**
   * How many entries of the component committed here have not been through their publish yet: those
   * waiting for it and those it carries now (not those a sweep will find, such as entries whose
   * publish failed).
   */
  long unpublished(String component) {
    Committed line = committed.get(component);
    return line == null ? 0 : line.unpublished.get();
  }

  /**
   * The entries of one component committed here and not yet published: published in the order they
   * were committed, as many together as arrived while the ones before them were published. One
   * drain per component at a time runs on the publishing executor, started by the commit that finds
   * none running or due (flat combining, {@link Combiner}), so a burst of commits makes a few large
   * publishes, not one publish and one thread per entry.
   */
  private final class Committed {
    private final Component component;
    private final Queue<OutboxEntry> waiting = new ConcurrentLinkedQueue<>();

    /** How many wait: the queue's own size is a walk of it. */
    private final AtomicInteger queued = new AtomicInteger();

    /**
     * Entries added and not yet through their publish: waiting, and those a publish carries now.
     */
    private final AtomicLong unpublished = new AtomicLong();

    private final Combiner drains = Combiner.on(immediate, this::drain);

    Committed(Component component) {
      this.component = component;
    }

    void add(OutboxEntry entry) {
      unpublished.incrementAndGet();
      queued.incrementAndGet();
      waiting.add(entry);
      drains.request(); // refused only while the publisher closes: the entry stays for a sweep
    }

    /**
     * Publishes everything waiting, after a moment for more when few wait; a batch that throws,
     * {@code Error} included, leaves the others to be published all the same, and its entries to a
     * sweep.
     */
    private void drain() {
      if (queued.get() < LINGER_BELOW) LockSupport.parkNanos(GATHER_NANOS);
      Throwable failure = null;
      while (true) {
        List<OutboxEntry> batch = new ArrayList<>();
        for (OutboxEntry entry; batch.size() < BATCH && (entry = waiting.poll()) != null; )
          batch.add(entry);
        if (batch.isEmpty()) break;
        queued.addAndGet(-batch.size());
        try {
          publish(component, batch, false);
        } catch (Throwable t) { // go on: the combiner leaves what waits now to this drain
          if (failure == null) failure = t;
        } finally {
          unpublished.addAndGet(-batch.size());
        }
      }
      rethrow(failure);
    }
  }

  /**
   * Publishes at once the entries of a hosted component that were marked to be published again
   * ({@link Redelivery}) by sweeping now, rather than at the next sweep; sweeps the component from
   * then on if it announces nothing (a component this process does not host is not swept here).
   */
  void redelivered(String label) {
    for (Component component : quiet) if (component.label().equals(label)) sending.add(label);
    sweeper.execute(this::sweep);
  }

  /** Sends the tasks on their components' task queues, in order; durable when it returns. */
  @Override
  public void send(List<Task> tasks) {
    send(tasks, clock.millis(), Context.current());
  }

  /**
   * Sends the tasks, marked as committed at {@code committed} (epoch milliseconds), in the trace of
   * {@code parent}.
   */
  private void send(List<Task> tasks, long committed, Context parent) {
    for (Task task : tasks) {
      String endpoint = task.endpoint();
      String queue = Messaging.tasks(endpoint.substring(0, endpoint.lastIndexOf('.')));
      tracing.produce(
          "send " + endpoint,
          new Message(
              task.identity(),
              endpoint,
              Binding.json(task.request()),
              Map.of(Announcements.COMMITTED, Long.toString(committed))),
          parent,
          message -> bus.send(queue, message));
    }
  }

  /**
   * Publishes every unpublished entry of every swept component, and removes old ones. A component
   * whose sweep throws, {@code Error} included, is logged and swept again next round; the others
   * are swept all the same.
   */
  void sweep() {
    if (sweeps.incrementAndGet() % (CLAIM_MILLIS / SWEEP_MILLIS) == 0) probe();
    for (Component component : swept()) {
      Store store = component.store().orElseThrow();
      try {
        long now = clock.millis();
        List<OutboxEntry> claimed = store.claim(BATCH, now, now + CLAIM_MILLIS);
        outage(component).succeeded(); // the storage answers; publishing has its own outage log
        publish(component, claimed, true);
        store.purgePublished(clock.millis() - retentionMillis, BATCH);
      } catch (RuntimeException e) {
        failed(outage(component), e, SWEEP_FAILED, component.label(), SWEEP_MILLIS, e);
      } catch (
          Error
              e) { // out of the scheduled task, it would end every later sweep, of every component
        LOG.error(SWEEP_FAILED, component.label(), SWEEP_MILLIS, e);
      }
    }
  }

  /** Adds to the swept components those that announce nothing but hold unpublished entries. */
  private void probe() {
    for (Component component : quiet) {
      if (sending.contains(component.label())) continue;
      try {
        if (!component.store().orElseThrow().unpublished(1).isEmpty())
          sending.add(component.label());
      } catch (RuntimeException e) {
        failed(outage(component), e, PROBE_FAILED, component.label(), CLAIM_MILLIS, e);
      } catch (Error e) { // a probe runs in the sweep: out of it, it would end every later sweep
        LOG.error(PROBE_FAILED, component.label(), CLAIM_MILLIS, e);
      }
    }
  }

  private List<Component> swept() {
    List<Component> swept = new ArrayList<>(announcing);
    for (Component component : quiet) if (sending.contains(component.label())) swept.add(component);
    return swept;
  }

  /** How many entries wait to be published, over all swept components: an indexed count of each. */
  long backlog() {
    long n = 0;
    for (Component component : swept()) n += component.store().orElseThrow().unpublishedCount();
    return n;
  }

  /**
   * Publishes the entries' messages, in order: their events together in one publish, then their
   * tasks; then leaves their marks to be written with others ({@link Marks}). An entry stays in
   * flight until its mark is written, so the other path never takes it meanwhile; one the other
   * path is publishing right now is left to it. When publishing them together fails for another
   * reason than a server out of reach, each is published alone, so that one entry that cannot be
   * published holds up none of the others.
   */
  private void publish(Component component, List<OutboxEntry> entries, boolean again) {
    List<OutboxEntry> taken = new ArrayList<>(entries.size());
    for (OutboxEntry entry : entries) if (inFlight.add(entry.id())) taken.add(entry);
    if (taken.isEmpty()) return;
    boolean handed = false;
    try {
      List<String> done = publishEach(component, taken, again);
      if (!done.isEmpty()) {
        sending(component).succeeded();
        // marked on another thread, so that the next publish does not wait for the storage
        marks.computeIfAbsent(component.label(), label -> new Marks(component)).add(done);
      }
      handed = true;
    } finally {
      // an Error on the way: none of them is left in flight, where no sweep would take it again
      if (!handed) taken.forEach(entry -> inFlight.remove(entry.id()));
    }
  }

  /** Publishes the entries together, or each alone when that fails; the ids of those published. */
  private List<String> publishEach(Component component, List<OutboxEntry> taken, boolean again) {
    List<String> done = new ArrayList<>(taken.size());
    try {
      publishTogether(component, taken, again);
      taken.forEach(entry -> done.add(entry.id()));
    } catch (RuntimeException e) {
      if (taken.size() > 1 && !OutageLog.isOutage(e)) {
        for (OutboxEntry entry : taken) {
          try {
            publishTogether(component, List.of(entry), true); // part of it may have been delivered
            done.add(entry.id());
          } catch (RuntimeException alone) {
            unpublished(component, entry, alone);
          }
        }
      } else {
        taken.forEach(entry -> unpublished(component, entry, e));
        if (OutageLog.isOutage(e)) release(component, taken);
      }
    }
    return done;
  }

  /**
   * Gives back the claims on entries this process could not publish because the bus is out of
   * reach, so that a process that reaches it publishes them at its next sweep rather than once the
   * claims end. A process cut off from the database as well cannot: its claims end by themselves.
   */
  private void release(Component component, List<OutboxEntry> entries) {
    try {
      component.store().orElseThrow().release(entries, clock.millis());
    } catch (RuntimeException e) {
      failed(
          outage(component),
          e,
          "The claims on {} outbox entries of {} were not given back; they end by themselves",
          entries.size(),
          component.label(),
          e);
    }
  }

  /**
   * Publishes the events of the entries in one publish, then sends their tasks, in order; {@code
   * again} for entries a sweep found unpublished, which may have been delivered before ({@link
   * Bus#republish}).
   */
  private void publishTogether(Component component, List<OutboxEntry> entries, boolean again) {
    List<Tracing.Produced> events = new ArrayList<>();
    for (OutboxEntry entry : entries) {
      Context committed = Tracing.extract(entry.trace());
      for (Message message :
          component.announcements().render(entry, built.remove(entry.id()), consumed)) {
        events.add(new Tracing.Produced("publish " + message.label(), message, committed));
      }
    }
    if (!events.isEmpty()) tracing.produce(events, again ? bus::republish : bus::publish);
    for (OutboxEntry entry : entries)
      send(Task.decode(entry.tasks()), entry.created(), Tracing.extract(entry.trace()));
  }

  /** An entry not published: out of flight, for a sweep to publish again. */
  private void unpublished(Component component, OutboxEntry entry, RuntimeException e) {
    inFlight.remove(entry.id());
    failed(
        sending(component),
        e,
        "Outbox entry {} of {} was not published; the sweep tries it again",
        entry.id(),
        component.label(),
        e);
  }

  /**
   * The entries of one component whose messages are on the bus and whose mark is not written yet,
   * written together by one thread at a time (flat combining, {@link Combiner}: no thread of its
   * own).
   */
  private final class Marks {
    private final Component component;
    private final Queue<String> waiting = new ConcurrentLinkedQueue<>();

    /** How many wait: the queue's own size is a walk of it. */
    private final AtomicInteger queued = new AtomicInteger();

    private final Combiner writes = Combiner.on(immediate, this::write);

    Marks(Component component) {
      this.component = component;
    }

    /**
     * Adds the entries' marks and, unless a thread is writing marks or about to, starts a task that
     * writes every waiting one. A thread writing (or lingering before it writes) takes them with
     * its own: under load, most publishes start no task.
     */
    void add(List<String> ids) {
      queued.addAndGet(ids.size());
      waiting.addAll(ids);
      if (writes.request()) return;
      // the publisher is closing: unmarked, so a sweep publishes them again, under the same ids
      if (waiting.removeAll(ids)) queued.addAndGet(-ids.size());
      ids.forEach(inFlight::remove);
    }

    /**
     * Writes every waiting mark, at most {@value #BATCH} a statement, after a moment for more when
     * few wait (a few marks alone would cost a statement each, as when one caller commits entries
     * one by one).
     */
    private void write() {
      if (queued.get() < LINGER_BELOW) LockSupport.parkNanos(LINGER_NANOS);
      Throwable failure = null;
      List<String> batch = new ArrayList<>(BATCH);
      while (true) {
        batch.clear();
        for (String id; batch.size() < BATCH && (id = waiting.poll()) != null; ) batch.add(id);
        if (batch.isEmpty()) break;
        queued.addAndGet(-batch.size());
        try {
          component.store().orElseThrow().published(batch, clock.millis());
          progress.signal();
          outage(component).succeeded();
        } catch (RuntimeException e) {
          failed(
              outage(component),
              e,
              "{} outbox entries of {} were not marked published; the sweep publishes them again",
              batch.size(),
              component.label(),
              e);
        } catch (Throwable t) { // an Error: go on, the combiner leaves what waits now to this drain
          if (failure == null) failure = t;
        } finally {
          batch.forEach(inFlight::remove);
        }
      }
      rethrow(failure);
    }
  }

  /** Throws the failure a drain went on past, once it has taken everything that waited. */
  private static void rethrow(Throwable failure) {
    if (failure instanceof RuntimeException e) throw e;
    if (failure instanceof Error e) throw e;
    if (failure != null) throw new IllegalStateException(failure);
  }

  private OutageLog outage(Component component) {
    return outages.computeIfAbsent(
        component.label(), label -> new OutageLog(LOG, "The outbox of " + label, clock));
  }

  private OutageLog sending(Component component) {
    return publishing.computeIfAbsent(
        component.label(), label -> new OutageLog(LOG, "Publishing the outbox of " + label, clock));
  }

  /**
   * A server out of reach goes to the component's outage log; anything else is an ERROR of its own,
   * with its stack trace.
   */
  private static void failed(
      OutageLog outage, RuntimeException e, String format, Object... arguments) {
    if (OutageLog.isOutage(e)) outage.failed(e);
    else LOG.error(format, arguments);
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    immediate.shutdown();
    try {
      if (!immediate.awaitTermination(10, TimeUnit.SECONDS)) immediate.shutdownNow();
      sweeper.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
