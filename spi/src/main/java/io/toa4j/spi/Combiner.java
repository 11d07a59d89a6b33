package io.toa4j.spi;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs a drain on one thread at a time, for as long as work keeps being asked for (flat combining):
 * a thread that asks while a drain runs leaves its work to that drain, which runs once more before
 * it stops. The drain takes whatever waits (in a queue of its owner's) each time it runs; the
 * combiner only decides who runs it and when. So a drain must take everything that waits when it
 * starts whatever fails while it works — take it all before working on it, or go on past a failure
 * and throw at the end: a request made before a run starts is left to that run.
 *
 * <p>Its state is one of four, after Caffeine's drain status:
 *
 * <ul>
 *   <li>{@code IDLE}: no drain runs or is due; the next {@link #request()} starts one.
 *   <li>{@code REQUIRED}: a drain is due, handed to the executor and not yet started.
 *   <li>{@code PROCESSING_TO_IDLE}: a drain runs, and nothing was asked since it began.
 *   <li>{@code PROCESSING_TO_REQUIRED}: a drain runs, and something was asked since it began: it
 *       runs again before it stops.
 * </ul>
 *
 * <p>Who moves it: a requester, from {@code IDLE} to {@code REQUIRED} (handing the run to the
 * executor) or, inline, to {@code PROCESSING_TO_IDLE} (running it itself), and from {@code
 * PROCESSING_TO_IDLE} to {@code PROCESSING_TO_REQUIRED}; {@code REQUIRED} and {@code
 * PROCESSING_TO_REQUIRED} already promise a run that sees the request. The running thread, and only
 * it: from {@code REQUIRED} to {@code PROCESSING_TO_IDLE} as it starts, from {@code
 * PROCESSING_TO_REQUIRED} to {@code PROCESSING_TO_IDLE} before each further run, and from {@code
 * PROCESSING_TO_IDLE} to {@code IDLE} when it stops. A requester whose executor refuses the run
 * moves {@code REQUIRED} back to {@code IDLE}.
 *
 * <p>Every path out of a run leaves {@code IDLE}: a drain that throws, {@code Error} included, is
 * run again when something was asked meanwhile, as one that returns is, and the first failure is
 * thrown to the thread that ran it once the state is {@code IDLE}. So no request is lost to a
 * failure, and a drain never runs on two threads at once. Thread-safe; checked with Lincheck.
 */
public final class Combiner {
  private static final int IDLE = 0;
  private static final int REQUIRED = 1;
  private static final int PROCESSING_TO_IDLE = 2;
  private static final int PROCESSING_TO_REQUIRED = 3;

  private final AtomicInteger status = new AtomicInteger(IDLE);
  private final Runnable drain;

  /** Where a due drain runs; {@code null}: on the requesting thread. */
  private final @Nullable Executor executor;

  private Combiner(Runnable drain, @Nullable Executor executor) {
    this.drain = drain;
    this.executor = executor;
  }

  /**
   * A combiner whose drain runs on the thread that finds none running, before its request returns.
   */
  public static Combiner inline(Runnable drain) {
    return new Combiner(drain, null);
  }

  /**
   * A combiner whose drain runs on the executor, started by the request that finds none due or
   * running.
   */
  public static Combiner on(Executor executor, Runnable drain) {
    return new Combiner(drain, executor);
  }

  /**
   * Asks for a drain that sees everything added before this call: runs it now (inline, when none
   * runs), hands it to the executor (when none is due), or leaves it to the run due or running.
   *
   * @return false when the executor refused the run (it is shutting down): no drain sees this
   *     request, nor any made since the run was handed over
   * @throws RuntimeException or {@code Error} an inline drain threw, once the combiner is idle
   */
  public boolean request() {
    while (true) {
      int now = status.get();
      if (now == IDLE) {
        if (executor == null) {
          if (status.compareAndSet(IDLE, PROCESSING_TO_IDLE)) {
            run();
            return true;
          }
        } else if (status.compareAndSet(IDLE, REQUIRED)) {
          return handOver(executor);
        }
      } else if (now == PROCESSING_TO_IDLE) {
        if (status.compareAndSet(PROCESSING_TO_IDLE, PROCESSING_TO_REQUIRED)) return true;
      } else {
        return true; // REQUIRED or PROCESSING_TO_REQUIRED: a run is due that sees this request
      }
    }
  }

  /** Whether a drain runs or is due now; for tests and metrics, stale as soon as it returns. */
  public boolean busy() {
    return status.get() != IDLE;
  }

  private boolean handOver(Executor executor) {
    Run run = new Run();
    try {
      executor.execute(run);
      return true;
    } catch (RejectedExecutionException e) {
      status.set(IDLE); // not accepted, so never started: nothing else leaves REQUIRED
      return false;
    } catch (RuntimeException | Error e) {
      // an executor running it on this thread threw what the run threw, the state already IDLE;
      // one that failed before running it leaves it due
      if (!run.began) status.set(IDLE);
      throw e;
    }
  }

  /** The run handed to the executor: only it leaves {@code REQUIRED}. */
  private final class Run implements Runnable {
    private volatile boolean began;

    @Override
    public void run() {
      began = true;
      status.set(PROCESSING_TO_IDLE);
      Combiner.this.run();
    }
  }

  private void run() {
    Throwable failure = null;
    do {
      try {
        drain.run();
      } catch (Throwable t) { // Error too: the state must still end IDLE, and later requests be run
        if (failure == null) failure = t;
      }
    } while (!status.compareAndSet(PROCESSING_TO_IDLE, IDLE) && again());
    if (failure instanceof RuntimeException e) throw e;
    if (failure instanceof Error e) throw e;
    if (failure != null) throw new IllegalStateException("The drain failed", failure);
  }

  /** Asked for during the run: only the running thread leaves {@code PROCESSING_TO_REQUIRED}. */
  private boolean again() {
    status.set(PROCESSING_TO_IDLE);
    return true;
  }
}
