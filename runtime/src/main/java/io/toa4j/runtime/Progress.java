package io.toa4j.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A signal that work a call caused has moved on: raised when an outbox entry is marked published
 * and when a delivery's verdict is reached, so that {@link Admin#settle} re-checks what is pending
 * at once instead of on a timer, and {@link Admission} lets held calls go as soon as their line is
 * short enough.
 *
 * <p>It counts signals rather than holding a flag, so a waiter that read the count before checking
 * misses none raised after: {@code seen = count(); check(); await(seen, ...)}. A listener runs on
 * the signalling thread after the waiters were woken, for a check cheaper than waking a thread; it
 * must return at once and throw nothing. Thread-safe.
 */
final class Progress {
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private long signals;

  /** Wakes every waiter, then runs the listeners. */
  void signal() {
    synchronized (this) {
      signals++;
      notifyAll();
    }
    for (Runnable listener : listeners) listener.run();
  }

  /** Runs {@code listener} at every signal from now on, on the signalling thread. */
  void listen(Runnable listener) {
    listeners.add(listener);
  }

  /** How many signals were raised so far. */
  synchronized long count() {
    return signals;
  }

  /**
   * Waits until a signal is raised after the {@code seen}-th, at most {@code nanos}.
   *
   * @return true when a signal came, false when the time ran out
   */
  synchronized boolean await(long seen, long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    for (long left = nanos; signals == seen; left = deadline - System.nanoTime()) {
      if (left <= 0) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }
}
