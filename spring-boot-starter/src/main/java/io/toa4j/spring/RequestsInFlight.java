package io.toa4j.spring;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts the requests the application's web server is serving, and, when the application stops,
 * waits for them to be answered (at most {@link #TIMEOUT}) before the web server stops and the
 * context closes. So a request that is calling the context when the stop begins gets its answer and
 * its commit, whichever web server runs and whether or not its own graceful shutdown sees the
 * request.
 *
 * <p>Its phase lies between the web server's graceful shutdown (which stops taking new requests)
 * and the web server's stop: no new request arrives while it waits. Thread-safe.
 */
final class RequestsInFlight extends OncePerRequestFilter implements SmartLifecycle {
  /**
   * After the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}), before its stop
   * ({@code - 2048}).
   */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;

  /**
   * How long a stop waits for the requests in flight: Spring's own default for a shutdown phase.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(RequestsInFlight.class);

  private int serving; // guarded by this
  private volatile boolean running;

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    synchronized (this) {
      serving++;
    }
    try {
      chain.doFilter(request, response);
    } finally {
      synchronized (this) {
        if (--serving == 0) notifyAll();
      }
    }
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public synchronized void stop() {
    running = false;
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try {
      while (serving > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warn(
              "{} request(s) still in flight after {} s; the context closes under them",
              serving,
              TIMEOUT.toSeconds());
          return;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
