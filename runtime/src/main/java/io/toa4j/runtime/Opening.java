package io.toa4j.runtime;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * An engine being opened on a thread of its own, so that a context's storage and bus connect to
 * their servers at the same time, while the components are bound: a start waits for the slower of
 * the two, not for both one after the other.
 *
 * <p>Each opening ends in one of two ways, on every path, {@code Error} included: {@link #get()}
 * hands its engine over to the caller, who closes it from then on; or {@link #abandon(Throwable)}
 * interrupts a wait for the server, waits for the thread to end, and closes the engine if it was
 * opened all the same. An opening that failed leaves nothing to close. Used by one thread, the
 * builder's.
 *
 * @param <T> the engine: a storage or a bus
 */
final class Opening<T extends AutoCloseable> {
  private final FutureTask<T> task;
  private final Thread thread;
  private final long started = System.nanoTime();
  private volatile long millis = -1;

  private Opening(Supplier<T> open, String name) {
    this.task =
        new FutureTask<>(
            () -> {
              try {
                return open.get();
              } finally {
                millis = (System.nanoTime() - started) / 1_000_000;
              }
            });
    this.thread = new Thread(task, name);
    thread.setDaemon(true);
  }

  /**
   * Starts opening the engine on a new daemon thread named after it.
   *
   * @throws OutOfMemoryError and the like when the thread cannot start; nothing is opened then
   */
  static <T extends AutoCloseable> Opening<T> start(String name, Supplier<T> open) {
    Opening<T> opening = new Opening<>(open, name);
    opening.thread.start();
    return opening;
  }

  /** How long opening took, in milliseconds, once {@link #get()} returned; for the start's log. */
  long millis() {
    return millis;
  }

  /**
   * The opened engine, waiting for it; from here on the caller closes it.
   *
   * @throws RuntimeException what opening it threw (such as a {@link StartupException}), as it was
   * @throws Error what opening it threw, as it was
   */
  T get() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          // the engine is opened or fails on its own: waiting for it is the only way to know
          // whether there is one to close
          interrupted = true;
        } catch (ExecutionException e) {
          throw rethrown(e.getCause());
        } catch (CancellationException e) {
          throw new IllegalStateException(
              "The opening of an engine was abandoned before it was asked for", e);
        }
      }
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }

  /**
   * Gives the opening up, because the start failed elsewhere: interrupts the engine's wait for its
   * server, waits for the thread, and closes the engine if it opened. Never throws; what closing
   * throws is added to {@code cause}.
   */
  void abandon(Throwable cause) {
    thread.interrupt();
    T opened;
    try {
      opened = get();
    } catch (RuntimeException | Error e) {
      return; // it failed, or gave up its wait: nothing was opened
    }
    close(opened, cause);
  }

  /** Closes an engine after a failed start; what closing throws is added to {@code cause}. */
  static void close(AutoCloseable engine, Throwable cause) {
    try {
      engine.close();
    } catch (Exception | Error e) {
      cause.addSuppressed(e);
    }
  }

  private static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof RuntimeException runtime) return runtime;
    if (cause instanceof Error error) throw error;
    return new IllegalStateException("An engine failed to open: " + cause, cause);
  }
}
