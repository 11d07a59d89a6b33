package io.toa4j.tck.bus;

import io.toa4j.spi.Bus;
import io.toa4j.tck.stack.Overflow;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits on a bus that an error may have stopped, bounded, so that a test fails rather than hangs.
 */
final class Bounded {
  private static final java.time.Duration PATIENCE = BusContract.PATIENCE;

  private Bounded() {}

  /**
   * The action's result, run on a thread of its own and waited for at most twice the patience: a
   * bus that an error stopped fails the test here, naming what did not end, rather than hanging it.
   */
  static <T> T within(String what, Callable<T> action) throws InterruptedException {
    FutureTask<T> task = new FutureTask<>(action);
    Thread thread = new Thread(task, "within: " + what);
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(PATIENCE.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          what
              + " did not end within "
              + PATIENCE.multipliedBy(2).toSeconds()
              + " s: the bus stopped, a lock"
              + " left held by the error; where it waits: "
              + Overflow.describe(stackOf(thread)));
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    }
  }

  static Throwable stackOf(Thread thread) {
    Throwable where = new Throwable("the thread of " + thread.getName());
    where.setStackTrace(thread.getStackTrace());
    return where;
  }

  /**
   * Closes the bus, bounded; when the test already failed, a close that does not end is added to
   * that failure.
   */
  static void closeWithin(Bus bus, Throwable failed) throws InterruptedException {
    try {
      within(
          "the bus's close",
          () -> {
            bus.close();
            return null;
          });
    } catch (AssertionError e) {
      if (failed == null) throw e;
      failed.addSuppressed(e);
    }
  }
}
