package io.toa4j.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.toa4j.api.Failure;
import io.toa4j.runtime.InFlight;
import io.toa4j.runtime.Replies;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control channel of a running context: an HTTP server on 127.0.0.1, on a port the system
 * picks, that takes calls in the {@link Wire} format and answers them in the form of {@link Replies} from whoever presents the secret token.
 *
 * <p>It is not the application's HTTP gateway: it has one route, is bound to the loopback address
 * only, and exists so that {@code toa call} reaches the process that owns the context instead of
 * booting a second copy of it. Thread-safe; each exchange runs on its own handler thread.
 */
final class ControlChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);
  static final String HOST = "127.0.0.1";
  /** Far above any request typed in a shell; a bound on what one exchange can make us hold. */
  static final int MAX_BODY = 16 * 1024 * 1024;
  /** How long closing waits for calls in flight. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);
  /** How long a call waits for its twin (the same identity, a retried toa call) being answered here. */
  static final Duration ATTACH = Duration.ofSeconds(5);

  private final HttpServer server;
  private final ExecutorService threads;
  private final Exchanges inFlight;

  private ControlChannel(HttpServer server, ExecutorService threads, Exchanges inFlight) {
    this.server = server;
    this.threads = threads;
    this.inFlight = inFlight;
  }

  /** Starts serving calls to the caller for anyone presenting the token. */
  static ControlChannel start(Caller caller, String token) throws IOException {
    return start(caller, token, () -> {});
  }

  /** @param waiting told when a call starts to wait for its twin being answered here */
  static ControlChannel start(Caller caller, String token, Runnable waiting) throws IOException {
    byte[] secret = token.getBytes(StandardCharsets.UTF_8);
    HttpServer server = HttpServer.create(new InetSocketAddress(HOST, 0), 0);
    ExecutorService threads = HandlerThreads.create();
    Exchanges inFlight = new Exchanges();
    InFlight calls = new InFlight();
    server.setExecutor(threads);
    server.createContext(Wire.PATH, exchange -> inFlight.run(() -> serve(exchange, caller, secret, calls, waiting)));
    server.start();
    return new ControlChannel(server, threads, inFlight);
  }

  int port() {
    return server.getAddress().getPort();
  }

  /**
   * Stops taking calls: waits up to two seconds for the calls in flight to be answered, then closes
   * the socket. (Not {@code HttpServer.stop(2)}, which before Java 21 always waits the two seconds.)
   */
  @Override
  public void close() {
    try {
      inFlight.awaitNone(STOP_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.stop(0);
    threads.shutdown();
  }

  private static void serve(HttpExchange exchange, Caller caller, byte[] secret, InFlight calls, Runnable waiting) {
    try (exchange) {
      String token = exchange.getRequestHeaders().getFirst(Wire.TOKEN_HEADER);
      if (token == null || !MessageDigest.isEqual(secret, token.getBytes(StandardCharsets.UTF_8))) {
        answer(exchange, 403, "the token is missing or wrong; toa call reads it from .toa/run.json");
      } else if (!Wire.PATH.equals(exchange.getRequestURI().getPath())) {
        answer(exchange, 404, "the control channel has one route: POST " + Wire.PATH);
      } else if (!"POST".equals(exchange.getRequestMethod())) {
        answer(exchange, 405, "the control channel takes POST " + Wire.PATH);
      } else {
        byte[] body = body(exchange.getRequestBody());
        if (body.length > MAX_BODY) {
          answer(exchange, 413, "a call is at most " + MAX_BODY + " bytes");
        } else {
          call(exchange, caller, body, calls, waiting);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("An exchange on the control channel broke off: {}", Errors.describe(e));
    }
  }

  /** Counts the exchanges being served, so closing can wait for them and no longer. */
  private static final class Exchanges {
    private int count;

    void run(Runnable exchange) {
      synchronized (this) {
        count++;
      }
      try {
        exchange.run();
      } finally {
        synchronized (this) {
          if (--count == 0) notifyAll();
        }
      }
    }

    synchronized void awaitNone(Duration limit) throws InterruptedException {
      long deadline = System.nanoTime() + limit.toNanos();
      for (long left = limit.toNanos(); count > 0 && left > 0; left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  /**
   * Answers the call. One whose identity is being answered here already (a toa call retried while
   * the first still runs) waits for that answer, at most {@link #ATTACH}, and is then answered as a
   * retry after it would be: from the inbox, so the operation runs once; past the wait it runs all
   * the same, and the store lets one of the two commit.
   */
  private static void call(HttpExchange exchange, Caller caller, byte[] body, InFlight calls, Runnable waiting) throws IOException {
    Wire.Call call;
    try {
      call = Wire.readCall(body);
    } catch (Wire.Malformed e) {
      answer(exchange, 400, "the body is not a call: " + e.getMessage());
      return;
    }
    Optional<String> key = call.identity().map(id -> call.endpoint() + " " + id);
    boolean taken = key.isPresent() && calls.take(key.get(), ATTACH, waiting);
    try {
      send(exchange, 200, outcome(caller, call));
    } finally {
      if (taken) calls.release(key.get());
    }
  }

  private static byte[] outcome(Caller caller, Wire.Call call) {
    try {
      return Replies.write(caller.call(call.endpoint(), call.request(), call.identity()));
    } catch (Failure failure) {
      return Replies.failure(failure);
    } catch (RuntimeException e) {
      LOG.warn("The call of {} failed unexpectedly", call.endpoint(), e);
      return Replies.failure(Failure.Code.SYSTEM, Errors.describe(e));
    }
  }

  private static byte[] body(InputStream in) throws IOException {
    try (in) {
      return in.readNBytes(MAX_BODY + 1);
    }
  }

  private static void answer(HttpExchange exchange, int status, String problem) throws IOException {
    send(exchange, status, Replies.failure(Failure.Code.CONTRACT, problem));
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", Wire.MEDIA_TYPE);
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }
}
