package io.toa4j.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.toa4j.spi.Bus;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backpressure at the edge: a new call of a component waits, before it runs, while more than the
 * backlog bound of its events and tasks are on their way — its entries committed here and not yet
 * published, and the messages in the longest of its queues that is being consumed: its receivers'
 * queues, and the task queues it sends to — so callers who write faster than the messages are
 * published and handled do not pile up a line in which every message waits longer than the last
 * (see docs/backpressure.md).
 *
 * <p>Only calls from outside the context wait (the public API, the HTTP routes); work already in it
 * — deliveries, tasks, the calls an operation makes — never does, so a receiver that writes to a
 * component whose own receivers lag cannot hold up the queue it drains. A queue nobody consumes
 * holds nothing back: what waits there waits for its consumer to start, which no caller can hasten.
 * A call waits at most the admission wait, then goes on, so a consumer that stopped making progress
 * slows calls by that much and stops none. The receivers' queues are known from the manifests; a
 * component's task queues are learned when it first sends a task to them ({@link #sends}), since
 * tasks are not declared.
 *
 * <p>The entries waiting here are counted in memory at each look; the queues' backlogs are asked of
 * the bus again once {@value #SAMPLE_MILLIS} ms have passed since the last ask — in real time, or
 * by the context's clock, which a test moves at will — when a waiting or entering call finds the
 * last answer old, and only while calls come: an idle context asks nothing. The bus is asked on a
 * thread of its own: the call that started the ask waits for it at most {@value #ASK_MILLIS} ms,
 * and an answer older than {@value #STALE_MILLIS} ms of real time counts as none, so a bus that
 * hangs holds no caller back. The longest wait is real time, whatever the clock.
 *
 * <p>A held call parks on its component's line ({@link Watched#line}), a {@link Progress} of its
 * own, raised when what is known says the line is short enough: at the runtime's {@link Progress}
 * (an entry marked published, a verdict reached; checked on the signalling thread, which wakes no
 * one while the line is still long) and at each answer of the bus. It also wakes when the next ask
 * is due, to start it, so a queue drained by another process is seen too: a held call wakes about
 * once per {@value #SAMPLE_MILLIS} ms, and when it may go. Every path out of a wait — the line
 * short enough, the wait over, an interrupt, an {@code Error} — leaves the component's count of
 * held calls as it found it, and every path out of an ask clears its flag. Thread-safe.
 */
final class Admission {
  private static final Logger LOG = LoggerFactory.getLogger(Admission.class);
  static final long SAMPLE_MILLIS = 20;
  private static final long ASK_MILLIS = 250;
  private static final long STALE_MILLIS = 1000;
  private static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS);
  private static final long STALE_NANOS = TimeUnit.MILLISECONDS.toNanos(STALE_MILLIS);
  private static final long NEVER = Long.MIN_VALUE;

  /** Where the bus is asked, so that a bus that hangs holds up no caller for long. */
  static final Executor ASKING = Threads.perTask("toa-backlog");

  static final String WAITS = "toa.backlog.waits";

  private final Bus bus;
  private final long bound;
  private final long waitNanos;
  private final MeterRegistry metrics;
  private final ToLongFunction<String> unpublished;
  private final Clock clock;
  private final Executor askers;

  /** By component label, the queues of its events and tasks and what they held when last asked. */
  private final ConcurrentMap<String, Watched> components = new ConcurrentHashMap<>();

  /**
   * @param receptions every receiver binding of the context: its queue is watched for the component
   *     that announces its event
   * @param unpublished by component label, how many of its entries committed here wait to be
   *     published
   * @param bound the most messages a consumed queue holds, or entries wait, before new calls wait;
   *     0: none ever waits
   * @param wait the longest a call waits
   * @param asking where the bus is asked: {@link #ASKING}, or a test's
   */
  Admission(
      Bus bus,
      Collection<Reception> receptions,
      ToLongFunction<String> unpublished,
      long bound,
      java.time.Duration wait,
      Clock clock,
      MeterRegistry metrics,
      Executor asking) {
    this.bus = bus;
    this.clock = clock;
    this.unpublished = unpublished;
    this.bound = bound;
    this.waitNanos = wait.toNanos();
    this.metrics = metrics;
    this.askers = asking;
    if (bound > 0) {
      for (Reception r : receptions)
        watched(r.label().substring(0, r.label().lastIndexOf('.'))).watch(r.queue());
    }
  }

  /** Returns once the component's entries and queues are short enough, or the wait is over. */
  void enter(String component) {
    Watched watched = components.get(component);
    if (watched == null || !watched.over()) return;
    metrics.counter(WAITS, "component", component).increment();
    watched.hold(System.nanoTime() + waitNanos);
  }

  /**
   * Notes that the component sends tasks to {@code target}: from now on the target's task queue is
   * part of the component's line, as its receivers' queues are. Cheap when already known.
   */
  void sends(String component, String target) {
    if (bound <= 0) return;
    String queue = Messaging.tasks(target);
    Watched watched = components.get(component);
    if (watched == null || !watched.watches(queue)) watched(component).watch(queue);
  }

  /**
   * At each signal of the runtime's progress: lets the held calls go of every component whose line
   * is short enough by what is known (its entries counted now, its queues as last answered); asks
   * the bus nothing and wakes no one otherwise.
   */
  void progressed() {
    for (Watched watched : components.values()) watched.release();
  }

  private Watched watched(String component) {
    return components.computeIfAbsent(component, Watched::new);
  }

  /**
   * The queues of one component's receivers and tasks, the longest consumed one's backlog when last
   * asked, and the calls held for them.
   */
  private final class Watched {
    private final String component;
    private volatile List<String> queues = List.of();

    /** Raised when the line may be short enough for the held calls to go. */
    private final Progress line = new Progress();

    private final AtomicInteger held = new AtomicInteger(); // calls waiting on the line now
    private final AtomicBoolean asking = new AtomicBoolean(); // an ask started and not yet answered
    private volatile long askedAt = NEVER; // when the last ask started, by the clock
    private volatile long askedNanos; // and in real time
    private volatile long longest; // as last answered
    private volatile long answeredNanos; // when the answer's ask started, in real time
    private volatile boolean answered;

    Watched(String component) {
      this.component = component;
    }

    boolean watches(String queue) {
      return queues.contains(queue);
    }

    synchronized void watch(String queue) {
      if (queues.contains(queue)) return;
      List<String> more = new java.util.ArrayList<>(queues);
      more.add(queue);
      queues = List.copyOf(more);
    }

    /**
     * Whether more than the bound of the component's messages are on their way: waiting here to be
     * published, and in its longest consumed queue.
     */
    boolean over() {
      return unpublished.applyAsLong(component) + backlog() > bound;
    }

    /** As {@link #over}, by the last answer, without asking. */
    private boolean overAsKnown() {
      return unpublished.applyAsLong(component) + known() > bound;
    }

    /**
     * Parks until the line is short enough or {@code deadline} (of {@link System#nanoTime}) passed,
     * waking also when the next ask is due to start it; an interrupt ends the wait, the flag kept.
     */
    void hold(long deadline) {
      held.incrementAndGet();
      try {
        // the count is read before each check, so a release after the check is not missed
        for (long seen = line.count(); over(); seen = line.count()) {
          long now = System.nanoTime();
          if (now - deadline >= 0) return;
          line.await(seen, Math.min(deadline - now, untilAsk(now)));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the caller is being stopped: it goes on and sees why
      } finally {
        held.decrementAndGet();
      }
    }

    /** Lets the held calls go when the line is short enough by what is known. */
    void release() {
      if (held.get() > 0 && !overAsKnown()) line.signal();
    }

    /**
     * How long until the next ask is due in real time; a whole period when it is due already (an
     * ask under way).
     */
    private long untilAsk(long now) {
      long left = askedNanos + SAMPLE_NANOS - now;
      return left > 0 ? left : SAMPLE_NANOS;
    }

    /**
     * The longest consumed queue's backlog: asked again when the last ask is old by either clock —
     * the context's, which a test moves at will, or real time, which moves under a clock that
     * stands still — and none is under way, else as last answered; 0 when the last answer is older
     * than {@value #STALE_MILLIS} ms of real time (a bus that stopped answering holds no call
     * back).
     */
    long backlog() {
      long at = clock.millis();
      long nanos = System.nanoTime();
      long last = askedAt;
      boolean old =
          last == NEVER
              || at - last >= SAMPLE_MILLIS
              || at < last // or the clock went back
              || nanos - askedNanos >= SAMPLE_NANOS;
      if (old && asking.compareAndSet(false, true)) {
        askedAt = at;
        askedNanos = nanos;
        refresh(nanos);
      }
      return known();
    }

    /** The last answer, or 0 when there is none younger than {@value #STALE_MILLIS} ms. */
    private long known() {
      return answered && System.nanoTime() - answeredNanos <= STALE_NANOS ? longest : 0;
    }

    /**
     * Asks on a thread of its own, waiting at most {@value #ASK_MILLIS} ms for the answer, which is
     * kept whenever it comes and lets the held calls go when it allows: a bus that hangs (a broker
     * cut off without a reset) delays one call by that much, and is not asked again until it
     * answered. The flag of an ask under way is cleared on every path: the answer, a failure, an
     * executor that refuses the ask or cannot start its thread (an {@code OutOfMemoryError}).
     */
    private void refresh(long nanos) {
      CompletableFuture<Void> done;
      try {
        done =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    longest = ask();
                    answeredNanos = nanos;
                    answered = true;
                  } finally {
                    asking.set(false);
                  }
                  release();
                },
                askers);
      } catch (RuntimeException
          | Error e) { // refused, or no thread could start: no ask runs, and no call fails for it
        asking.set(false);
        if (!(e instanceof RejectedExecutionException))
          LOG.warn("Cannot ask the backlogs of {}; the next call asks again", queues, e);
        return;
      }
      try {
        done.get(ASK_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException late) {
        // kept when it comes; this call goes on with what was known
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        LOG.debug("Cannot ask the backlogs of {}: {}", queues, e.toString());
      }
    }

    private long ask() {
      long longest = 0;
      for (String queue : queues) {
        try {
          OptionalLong backlog = bus.backlog(queue);
          if (backlog.isPresent()) longest = Math.max(longest, backlog.getAsLong());
        } catch (RuntimeException e) {
          // the bus out of reach: the publisher reports it; calls are not held back for it
          LOG.debug("Cannot ask the backlog of queue {}: {}", queue, e.toString());
        }
      }
      return longest;
    }
  }
}
