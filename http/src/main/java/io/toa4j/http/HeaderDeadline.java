package io.toa4j.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection whose request line and headers are still arriving {@code timeout} after their
 * first byte: a client that trickles its headers a byte at a time (never silent long enough for the
 * idle timeout) is cut off within {@code timeout} plus one sweep.
 *
 * <p>Jetty 12 reads headers without holding a thread, so such clients cost connections only; this
 * bounds how long each keeps one. Jetty has no limit of its own on the time headers take, so every
 * open HTTP/1 connection is looked at every {@link #sweep} (a quarter of the timeout, at most a
 * second): a parser that has left its start state but not yet reached the body is in the headers;
 * the first sweep that sees a request there notes the time, and a later one that finds the same
 * request (by the connection's count of requests) still there past the timeout closes the
 * connection. The parser's state is read from the sweeping thread without a lock, so a sweep may
 * see it late by one sweep; the deadline is that much longer at most.
 *
 * <p>Added to a connector as a bean: Jetty hands its {@link Connection.Listener} every connection
 * the connector opens. Thread-safe.
 */
final class HeaderDeadline extends AbstractLifeCycle implements Connection.Listener {
  private final long timeoutNanos;
  private final Duration sweep;
  private final Scheduler scheduler;
  private final Map<HttpConnection, Started> open = new ConcurrentHashMap<>();
  private volatile Scheduler.Task next;

  /** A request whose headers a sweep saw arriving: which one on its connection, and since when. */
  private record Started(long request, long since) {
    static final Started NONE = new Started(-1, 0);
  }

  HeaderDeadline(Duration timeout, Scheduler scheduler) {
    this.timeoutNanos = timeout.toNanos();
    long quarter = timeout.toMillis() / 4;
    this.sweep = Duration.ofMillis(Math.max(25, Math.min(1000, quarter)));
    this.scheduler = scheduler;
  }

  @Override
  public void onOpened(Connection connection) {
    if (connection instanceof HttpConnection http) open.put(http, Started.NONE);
  }

  @Override
  public void onClosed(Connection connection) {
    if (connection instanceof HttpConnection http) open.remove(http);
  }

  @Override
  protected void doStart() {
    next = scheduler.schedule(this::sweep, sweep.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  protected void doStop() {
    Scheduler.Task task = next;
    if (task != null) task.cancel();
  }

  private void sweep() {
    long now = System.nanoTime();
    open.replaceAll((connection, started) -> check(connection, started, now));
    if (isRunning())
      next = scheduler.schedule(this::sweep, sweep.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Started check(HttpConnection connection, Started started, long now) {
    HttpParser parser = connection.getParser();
    if (parser.isStart() || !parser.inHeaderState()) return Started.NONE;
    long request = connection.getMessagesIn();
    if (started.request() != request) return new Started(request, now);
    if (now - started.since() > timeoutNanos) connection.getEndPoint().close();
    return started;
  }
}
