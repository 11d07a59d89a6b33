package io.toa4j.tck.stack;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An action made to run out of stack at a chosen point: on a thread of its own with a small stack,
 * called that many frames short of the depth at which the thread's stack ends. Called again and
 * again with more frames to spare, the {@link StackOverflowError} is thrown at one depth of the
 * action's own calls after another — in an adapter, its driver, its locks, its {@code finally}
 * blocks — until the action has the stack it needs: an {@link Error} at every point the action can
 * meet one, with no hook in the code under test.
 *
 * <p>Load every class the action uses before the first try (run it once on an ordinary thread): a
 * class whose static initializer meets the end of the stack is unusable for the rest of the JVM's
 * life, whoever uses it next.
 */
public final class Overflow {
  /** The stack of a try's thread: small, so that a few hundred frames span a call into a driver. */
  private static final long STACK_BYTES = 512 * 1024;

  private Overflow() {}

  /**
   * What became of one try: the action's result, or what it threw, and whether the action was
   * entered at all (the error may come on the way down to it).
   */
  public record Try<T>(T result, Throwable error, boolean entered) {
    /** Whether the action returned. */
    public boolean returned() {
      return error == null && entered;
    }

    /** Whether the action was entered and threw. */
    public boolean erredInside() {
      return error != null && entered;
    }
  }

  /**
   * Runs the action {@code spare} frames short of the end of a small stack, and waits for it.
   *
   * @throws AssertionError when the try does not end within {@code patience}: a lock or a
   *     transaction left held by the error blocks it
   */
  public static <T> Try<T> call(Callable<T> action, int spare, Duration patience)
      throws InterruptedException {
    AtomicReference<Try<T>> result = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              Probe<T> measure = new Probe<>(null);
              try {
                descend(Integer.MAX_VALUE, measure);
              } catch (StackOverflowError | Exception e) {
                // the end of the stack, measured by the method that goes down to the action
              }
              Probe<T> probe = new Probe<>(action);
              try {
                T value = descend(measure.frames - spare, probe);
                result.set(new Try<>(value, null, true));
              } catch (
                  Throwable e) { // what the action threw, whatever it is, is what the test looks at
                result.set(new Try<>(null, e, probe.entered));
              }
            },
            "overflow",
            STACK_BYTES);
    thread.setDaemon(true);
    thread.start();
    thread.join(patience.toMillis());
    if (thread.isAlive()) {
      StringBuilder where = new StringBuilder();
      for (StackTraceElement frame : thread.getStackTrace()) {
        if (frame.getMethodName().equals("descend")) break;
        where.append("\n\tat ").append(frame);
      }
      throw new AssertionError(
          "an action "
              + spare
              + " frames short of the end of its stack did not end: something it waits for was left held; it waits"
              + where);
    }
    return result.get();
  }

  /** What a try threw, with where, for a failure's message: its first frames and its causes'. */
  public static String describe(Throwable error) {
    if (error == null) return "none";
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      text.append(text.length() == 0 ? "" : "\ncaused by ").append(t);
      StackTraceElement[] frames = t.getStackTrace();
      for (int i = 0; i < Math.min(8, frames.length); i++) text.append("\n\tat ").append(frames[i]);
    }
    return text.toString();
  }

  /** Goes down {@code frames} frames of its own, counting them, then runs the action. */
  private static <T> T descend(int frames, Probe<T> probe) throws Exception {
    probe.frames++;
    return frames <= 0 ? probe.run() : descend(frames - 1, probe);
  }

  /**
   * The action (none when only measuring the stack), the frames gone down, and whether it was
   * entered.
   */
  private static final class Probe<T> {
    private final Callable<T> action;
    int frames;
    boolean entered;

    Probe(Callable<T> action) {
      this.action = action;
    }

    T run() throws Exception {
      if (action == null) throw new IllegalStateException("only measuring");
      entered = true;
      return action.call();
    }
  }
}
