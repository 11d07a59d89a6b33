package io.toa4j.bus.rabbitmq;

/**
 * A thread the bus starts, whose stack begins with the bus's own frames: a handler's thread, or a
 * runner's. What the bus runs on one after its handler returned (an answer, a retry's copy) is at
 * the bottom of a stack the bus knows, and may talk to the broker there (see {@link Runners}).
 */
class BusThread extends Thread {
  BusThread(Runnable body, String name) {
    super(body, name);
    setDaemon(true);
  }

  /** Whether the current thread is one the bus started. */
  static boolean current() {
    return Thread.currentThread() instanceof BusThread;
  }
}
