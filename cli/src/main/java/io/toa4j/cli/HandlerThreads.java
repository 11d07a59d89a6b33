package io.toa4j.cli;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that serve the control channel: a virtual thread per exchange when the running JVM
 * has them (looked up reflectively, since the build targets Java 17), else a small fixed pool.
 */
final class HandlerThreads {
  private HandlerThreads() {}

  static ExecutorService create() {
    try {
      return (ExecutorService)
          Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Java 17 and 18 have no such method; 19 and 20 have it only with --enable-preview
      return Executors.newFixedThreadPool(
          Math.max(2, Runtime.getRuntime().availableProcessors()), daemons());
    }
  }

  private static ThreadFactory daemons() {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "toa-channel-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
