package io.toa4j.bus.rabbitmq;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * The runners' hand-off explored by Lincheck's model checker, under many interleavings of the
 * callers, the runners they start and a close: each caller is answered what its own work answered
 * (or thrown what it threw, an {@code Error} included), each work runs once, a caller that meets
 * the close is either answered or told the bus closed, and every runner ends once closed.
 */
class RunnersLincheckTest {
  private static final int SCHEDULES = 1_000;

  @Test
  void twoCallers_eachAnsweredItsOwnWork_eachWorkRunOnce_andTheRunnersEnd() {
    Lincheck.runConcurrentTest(
        SCHEDULES,
        () -> {
          Runners runners = new Runners("explored", 2, Duration.ZERO);
          AtomicInteger ran = new AtomicInteger();
          AtomicReferenceArray<Object> answers = new AtomicReferenceArray<>(2);
          Thread first =
              caller(
                  () ->
                      answers.set(
                          0,
                          runners.run(
                              () -> {
                                ran.incrementAndGet();
                                return "first";
                              })));
          Thread second =
              caller(
                  () ->
                      answers.set(
                          1,
                          runners.run(
                              () -> {
                                ran.incrementAndGet();
                                return "second";
                              })));
          join(first, second);
          runners.close();
          check(
              "first".equals(answers.get(0)) && "second".equals(answers.get(1)),
              "each caller answered its own work: " + answers);
          check(ran.get() == 2, "each work ran once: " + ran.get() + " runs");
          awaitEnded(runners);
        });
  }

  @Test
  void aWorkThrowingAnError_reachesItsCallerAlone_andTheRunnerGoesOn() {
    Lincheck.runConcurrentTest(
        SCHEDULES,
        () -> {
          Runners runners = new Runners("explored", 1, Duration.ZERO);
          AtomicReferenceArray<Object> answers = new AtomicReferenceArray<>(2);
          Thread failing =
              caller(
                  () -> {
                    try {
                      runners.run(
                          () -> {
                            throw new OutOfMemoryError("a work failing");
                          });
                    } catch (OutOfMemoryError e) {
                      answers.set(0, e.getMessage());
                    }
                  });
          Thread after = caller(() -> answers.set(1, runners.run(() -> "after")));
          join(failing, after);
          runners.close();
          check(
              "a work failing".equals(answers.get(0)),
              "the Error reached its caller: " + answers.get(0));
          check("after".equals(answers.get(1)), "the next work answered: " + answers.get(1));
          awaitEnded(runners);
        });
  }

  @Test
  void aCallerMeetingTheClose_isAnsweredOrToldItClosed_neverLeftWaiting() {
    Lincheck.runConcurrentTest(
        SCHEDULES,
        () -> {
          Runners runners = new Runners("explored", 2, Duration.ZERO);
          AtomicInteger ran = new AtomicInteger();
          AtomicReferenceArray<Object> answers = new AtomicReferenceArray<>(1);
          Thread racing =
              caller(
                  () -> {
                    try {
                      answers.set(
                          0,
                          runners.run(
                              () -> {
                                ran.incrementAndGet();
                                return "answered";
                              }));
                    } catch (IOException closed) {
                      answers.set(0, "closed");
                    }
                  });
          Thread closing = caller(runners::close);
          join(racing, closing);
          Object answer = answers.get(0);
          check(
              "answered".equals(answer) || "closed".equals(answer),
              "answered or told the bus closed: " + answer);
          check(
              ran.get() == ("answered".equals(answer) ? 1 : 0),
              "run once if answered, never if told closed: " + ran.get() + " runs");
          awaitEnded(runners);
        });
  }

  /** Plain checks: the checker compares what a test body holds, and AssertJ's objects refuse it. */
  private static void check(boolean holds, String what) {
    if (!holds) throw new AssertionError(what);
  }

  @Test
  void sentTasks_eachRunOrToldTheClose_andAFailureReachesItsSenderOnce() {
    Lincheck.runConcurrentTest(
        SCHEDULES,
        () -> {
          Runners runners = new Runners("explored", 2, Duration.ZERO);
          AtomicInteger ran = new AtomicInteger();
          AtomicInteger closedOn = new AtomicInteger();
          AtomicInteger failed = new AtomicInteger();
          AtomicReferenceArray<Object> answers = new AtomicReferenceArray<>(1);
          Thread sender =
              caller(
                  () -> {
                    runners.send(
                        () -> ran.incrementAndGet(), failure -> closedOn.incrementAndGet());
                    runners.send(
                        () -> {
                          throw new IOException("not confirmed");
                        },
                        failure -> failed.incrementAndGet());
                  });
          Thread waiting = caller(() -> answers.set(0, runners.run(() -> "answered")));
          join(sender, waiting);
          runners.close();
          awaitEnded(runners);
          check("answered".equals(answers.get(0)), "the caller answered: " + answers.get(0));
          check(
              ran.get() + closedOn.get() == 1,
              "the first sent task ran, or was told the close, once: "
                  + ran.get()
                  + " runs, "
                  + closedOn.get()
                  + " told");
          check(failed.get() == 1, "the failing sent task's failure told once: " + failed.get());
        });
  }

  /** A caller's body, which may throw what a call to the runners throws. */
  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  private static Thread caller(Body body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Exception e) {
                throw new AssertionError("a caller failed: " + e, e);
              }
            });
    thread.start();
    return thread;
  }

  private static void join(Thread... threads) {
    try {
      for (Thread thread : threads) thread.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Until every runner ended: the checker takes a wait with no end for a hang and says so. */
  private static void awaitEnded(Runners runners) {
    while (runners.runners() > 0) Thread.onSpinWait();
  }
}
