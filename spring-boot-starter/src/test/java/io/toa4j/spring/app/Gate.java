package io.toa4j.spring.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a credit in flight while a test looks at what happens meanwhile: {@link #shut()} makes the
 * next credit count its latch down and wait until {@link #open()}, at most 30 seconds.
 */
public final class Gate {
  private static volatile CountDownLatch reached;
  private static volatile CountDownLatch opened;

  private Gate() {}

  /** The next credit waits here; answers the latch it counts down on arriving. */
  public static CountDownLatch shut() {
    reached = new CountDownLatch(1);
    opened = new CountDownLatch(1);
    return reached;
  }

  /** Lets the credit waiting here, and every later one, pass. */
  public static void open() {
    CountDownLatch gate = opened;
    reached = null;
    opened = null;
    if (gate != null) gate.countDown();
  }

  /** Called by the credit: passes, or waits while the gate is shut. */
  public static void pass() {
    CountDownLatch arrived = reached;
    CountDownLatch gate = opened;
    if (arrived == null || gate == null) return;
    arrived.countDown();
    try {
      if (!gate.await(30, TimeUnit.SECONDS))
        throw new IllegalStateException("the gate was never opened");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
