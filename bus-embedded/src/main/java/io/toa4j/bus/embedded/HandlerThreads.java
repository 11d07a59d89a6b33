package io.toa4j.bus.embedded;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Where handlers run: virtual threads when the JVM has them, else a pool of daemon threads. */
final class HandlerThreads {
  private HandlerThreads() {}

  /**
   * A virtual thread per handler on Java 21 and later (looked up reflectively: the build targets
   * 17); else a cached pool of daemon threads, which the subscriptions' in-flight limits bound.
   */
  static ExecutorService create() {
    try {
      return (ExecutorService)
          Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      return Executors.newCachedThreadPool(daemons("toa-bus-handler-"));
    }
  }

  /** Names the threads and lets the JVM exit while they run. */
  static ThreadFactory daemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
