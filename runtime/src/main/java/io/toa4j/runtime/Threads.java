package io.toa4j.runtime;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for work that mostly waits on I/O: virtual threads when the running JVM has them (21 and
 * later), else daemon platform threads. The build targets 17, so the virtual-thread factory is
 * looked up rather than linked.
 */
final class Threads {
  private Threads() {}

  /** An executor that starts a thread per task. */
  static ExecutorService perTask(String name) {
    try {
      Method m = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
      return (ExecutorService) m.invoke(null);
    } catch (ReflectiveOperationException e) {
      return Executors.newCachedThreadPool(daemons(name));
    }
  }

  /** Named daemon platform threads, for the few long-lived loops. */
  static ThreadFactory daemons(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
