package io.toa4j.bus.embedded;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A wake-up call that is not lost when nobody waits yet: raised once, it ends the next wait.
 * Thread- safe.
 */
final class Signal {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition raised = lock.newCondition();
  private boolean up;

  void raise() {
    lock.lock();
    try {
      up = true;
      raised.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until raised or until the timeout passes, then lowers the signal. */
  void await(Duration timeout) {
    lock.lock();
    try {
      long nanos = timeout.toNanos();
      while (!up && nanos > 0) nanos = raised.awaitNanos(nanos);
      up = false;
    } catch (InterruptedException e) {
      // Only close() ends a poller, through its flag; an interrupt just ends this wait.
    } finally {
      lock.unlock();
    }
  }
}
