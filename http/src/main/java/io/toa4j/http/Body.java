package io.toa4j.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request's body without holding a thread while it arrives: each chunk is taken when Jetty
 * has it, and the rest of the exchange runs once the last one is in. A client that sends slowly
 * costs a connection and a buffer, never a thread.
 *
 * <p>The body is at most {@code maxBody} bytes. Over it the answer is 413: a body up to {@value
 * #DRAIN_FACTOR} times the limit is read to its end and dropped, so the connection stays and the
 * client (still sending) reads the answer instead of a reset; a larger one, or one declared larger,
 * is not read at all and the connection closes.
 *
 * <p>After a grace (the settings' {@code headerTimeout}), the body must have arrived at {@code
 * minBodyRate} bytes a second on average: {@code grace + received / rate} is its deadline, moved on
 * by every chunk. A body behind its deadline is answered 408, with {@code connection: close}.
 * Exactly one of {@code then} and {@code refused} is called, once. Not thread-safe: one per
 * request.
 */
final class Body {
  /** How many times the body limit is read and dropped to answer 413 on a connection that stays. */
  static final int DRAIN_FACTOR = 8;

  private final Request request;
  private final Response response;
  private final int maxBody;
  private final long drainLimit;
  private final long graceNanos;
  private final int minRate;
  private final Consumer<byte[]> then;
  private final Consumer<Problem> refused;
  private final long start = System.nanoTime();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private volatile long received;
  private Scheduler.Task deadline;

  private Body(
      Request request,
      Response response,
      GatewaySettings settings,
      Consumer<byte[]> then,
      Consumer<Problem> refused) {
    this.request = request;
    this.response = response;
    this.maxBody = settings.maxBody();
    this.drainLimit = (long) DRAIN_FACTOR * settings.maxBody();
    this.graceNanos = settings.headerTimeout().toNanos();
    this.minRate = settings.minBodyRate();
    this.then = then;
    this.refused = refused;
  }

  /**
   * Reads the body, then calls {@code then} with its bytes, or {@code refused} with the problem
   * (400, 408 or 413) that answers the request. Either may run on this thread, when the body is
   * already in, or on one of Jetty's later.
   */
  static void read(
      Request request,
      Response response,
      GatewaySettings settings,
      Consumer<byte[]> then,
      Consumer<Problem> refused) {
    new Body(request, response, settings, then, refused).start();
  }

  private void start() {
    long declared =
        request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH); // -1 when not declared
    if (declared > drainLimit) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      finish(null, tooLarge());
      return;
    }
    schedule();
    run();
  }

  /** Takes every chunk Jetty has, then asks to be called again when it has more. */
  private void run() {
    while (!finished.get()) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this::run);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        finish(null, unreadable(chunk.getFailure()));
        return;
      }
      ByteBuffer buffer = chunk.getByteBuffer();
      int n = buffer.remaining();
      received += n;
      if (received <= maxBody) {
        byte[] copy = new byte[n];
        buffer.get(copy);
        bytes.write(copy, 0, n);
      }
      boolean last = chunk.isLast();
      chunk.release();
      if (received > drainLimit) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        finish(null, tooLarge());
        return;
      }
      if (last) {
        finish(
            received <= maxBody ? bytes.toByteArray() : null,
            received <= maxBody ? null : tooLarge());
        return;
      }
    }
  }

  /** Checks the rate at the deadline the bytes received so far earn, and again at the next. */
  private void schedule() {
    long due = start + graceNanos + received * 1_000_000_000L / minRate;
    long wait = due - System.nanoTime();
    if (wait <= 0) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
      finish(
          null,
          new Problem(
              408,
              "TOO_SLOW",
              "the body arrived slower than "
                  + minRate
                  + " bytes a second after the first "
                  + Duration.ofNanos(graceNanos).toMillis()
                  + " ms; send it faster, or in a smaller request"));
      return;
    }
    Scheduler.Task task =
        request.getComponents().getScheduler().schedule(this::schedule, wait, TimeUnit.NANOSECONDS);
    synchronized (this) {
      deadline = task;
    }
    if (finished.get()) task.cancel();
  }

  private void finish(byte[] body, Problem problem) {
    if (!finished.compareAndSet(false, true)) return;
    synchronized (this) {
      if (deadline != null) deadline.cancel();
    }
    if (problem == null) then.accept(body);
    else refused.accept(problem);
  }

  private Problem tooLarge() {
    return new Problem(413, "TOO_LARGE", "the body is over " + maxBody + " bytes");
  }

  private Problem unreadable(Throwable failure) {
    if (failure instanceof TimeoutException) {
      return new Problem(
          408,
          "TOO_SLOW",
          "the body stopped arriving before its end; send as many bytes as content-length says, or end the chunks");
    }
    // Jetty's reason, such as "Early EOF": the connection ended before the body did
    String message = failure.getMessage();
    String reason = message == null || Problems.showsInternals(message) ? "" : " (" + message + ")";
    return new Problem(
        400,
        "MALFORMED",
        "the body cannot be read to its end"
            + reason
            + "; send as many bytes as content-length says, or end the chunks");
  }
}
