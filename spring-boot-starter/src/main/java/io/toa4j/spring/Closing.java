package io.toa4j.spring;

import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Closes what it holds when Spring stops the application, in the phase given: the context after the
 * web server has finished the requests it holds (which call the context), the gateway just before
 * the context. Closing the context drains it: the deliveries it holds run to their end and are
 * acknowledged, the rest go back to their queues. Closes once; on a context that failed before it
 * started, when its bean is destroyed.
 */
final class Closing implements SmartLifecycle, DisposableBean {
  /**
   * Below the web server's phases (its graceful shutdown at {@code DEFAULT_PHASE - 1024}, its stop
   * at {@code DEFAULT_PHASE - 2048}): stopped after them, so no request arrives at a closed
   * context.
   */
  static final int CONTEXT_PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  /** The gateway stops just before the context it calls. */
  static final int GATEWAY_PHASE = CONTEXT_PHASE + 1;

  private final AutoCloseable closeable;
  private final int phase;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean running;

  Closing(AutoCloseable closeable, int phase) {
    this.closeable = closeable;
    this.phase = phase;
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    close();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return phase;
  }

  @Override
  public void destroy() {
    close();
  }

  private void close() {
    if (!closed.compareAndSet(false, true)) return;
    try {
      closeable.close();
    } catch (Exception e) {
      throw new IllegalStateException("Closing " + closeable + " failed: " + e.getMessage(), e);
    }
  }
}
