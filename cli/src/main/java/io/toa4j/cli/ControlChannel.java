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
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control channel of a running context: an HTTP server on 127.0.0.1, on a port the system
 * picks, that takes calls in the {@link Wire} format and answers them in the form of {@link
 * Replies}, and runs {@code toa call} command lines relayed in the {@link RelayedCommand} format,
 * from whoever presents the secret token.
 *
 * <p>It is not the application's HTTP gateway: it has two routes, is bound to the loopback address
 * only, and exists so that {@code toa call} reaches the process that owns the context instead of
 * booting a second copy of it. Both routes make their calls alike ({@link #guarded}). Thread-safe;
 * each exchange runs on its own handler thread.
 */
final class ControlChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);
  static final String HOST = "127.0.0.1";

  /** Far above any request typed in a shell; a bound on what one exchange can make us hold. */
  static final int MAX_BODY = 16 * 1024 * 1024;

  /** How long closing waits for calls in flight. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);

  /**
   * How long a call waits for its twin (the same identity, a retried toa call) being answered here.
   */
  static final Duration ATTACH = Duration.ofSeconds(5);

  private final HttpServer server;
  private final ExecutorService threads;
  private final Exchanges inFlight;

  private ControlChannel(HttpServer server, ExecutorService threads, Exchanges inFlight) {
    this.server = server;
    this.threads = threads;
    this.inFlight = inFlight;
  }

  /**
   * Starts serving calls to the caller, and command lines on the context, for anyone presenting the
   * token.
   */
  static ControlChannel start(Caller caller, String token, Path context) throws IOException {
    return start(caller, token, context, () -> {});
  }

  /**
   * @param waiting told when a call starts to wait for its twin being answered here
   */
  static ControlChannel start(Caller caller, String token, Path context, Runnable waiting)
      throws IOException {
    byte[] secret = token.getBytes(StandardCharsets.UTF_8);
    HttpServer server = HttpServer.create(new InetSocketAddress(HOST, 0), 0);
    ExecutorService threads = HandlerThreads.create();
    Exchanges inFlight = new Exchanges();
    Caller guarded = guarded(caller, new InFlight(), waiting);
    Served served =
        new Served(context, ProcessHandle.current().pid(), server.getAddress().getPort(), guarded);
    server.setExecutor(threads);
    server.createContext(
        Wire.PATH,
        exchange ->
            inFlight.run(
                () -> serve(exchange, Wire.PATH, secret, body -> call(exchange, guarded, body))));
    server.createContext(
        Relay.PATH,
        exchange ->
            inFlight.run(
                () -> serve(exchange, Relay.PATH, secret, body -> relay(exchange, served, body))));
    server.start();
    return new ControlChannel(server, threads, inFlight);
  }

  int port() {
    return server.getAddress().getPort();
  }

  /**
   * Stops taking calls: waits up to two seconds for the calls in flight to be answered, then closes
   * the socket. (Not {@code HttpServer.stop(2)}, which before Java 21 always waits the two
   * seconds.)
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

  /** What a route does with a body that passed the checks every route makes. */
  @FunctionalInterface
  private interface Route {
    void answer(byte[] body) throws IOException;
  }

  private static void serve(HttpExchange exchange, String path, byte[] secret, Route route) {
    try (exchange) {
      String token = exchange.getRequestHeaders().getFirst(Wire.TOKEN_HEADER);
      if (token == null || !MessageDigest.isEqual(secret, token.getBytes(StandardCharsets.UTF_8))) {
        answer(
            exchange, 403, "the token is missing or wrong; toa call reads it from .toa/run.json");
      } else if (!path.equals(exchange.getRequestURI().getPath())) {
        answer(
            exchange,
            404,
            "the control channel has two routes: POST " + Wire.PATH + " and POST " + Relay.PATH);
      } else if (!"POST".equals(exchange.getRequestMethod())) {
        answer(exchange, 405, "the control channel takes POST " + path);
      } else {
        byte[] body = body(exchange.getRequestBody());
        if (body.length > MAX_BODY) {
          answer(exchange, 413, "a call is at most " + MAX_BODY + " bytes");
        } else {
          route.answer(body);
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
      for (long left = limit.toNanos();
          count > 0 && left > 0;
          left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  /**
   * The caller as both routes call it. A call whose identity is being answered here already (a toa
   * call retried while the first still runs) waits for that answer, at most {@link #ATTACH}, and is
   * then answered as a retry after it would be: from the inbox, so the operation runs once; past
   * the wait it runs all the same, and the store lets one of the two commit. Anything but a {@link
   * Failure} that the call throws is logged here and becomes a failure of code SYSTEM.
   */
  private static Caller guarded(Caller caller, InFlight calls, Runnable waiting) {
    return (endpoint, request, identity) -> {
      Optional<String> key = identity.map(id -> endpoint + " " + id);
      boolean taken = key.isPresent() && calls.take(key.get(), ATTACH, waiting);
      try {
        return caller.call(endpoint, request, identity);
      } catch (Failure failure) {
        throw failure;
      } catch (RuntimeException e) {
        LOG.warn("The call of {} failed unexpectedly", endpoint, e);
        throw new Failure(Failure.Code.SYSTEM, Errors.describe(e));
      } finally {
        if (taken) calls.release(key.get());
      }
    };
  }

  /** Answers a call in the {@link Wire} format. */
  private static void call(HttpExchange exchange, Caller caller, byte[] body) throws IOException {
    Wire.Call call;
    try {
      call = Wire.readCall(body);
    } catch (Wire.Malformed e) {
      answer(exchange, 400, "the body is not a call: " + e.getMessage());
      return;
    }
    byte[] outcome;
    try {
      outcome = Replies.write(caller.call(call.endpoint(), call.request(), call.identity()));
    } catch (Failure failure) {
      outcome = Replies.failure(failure);
    }
    send(exchange, 200, Wire.MEDIA_TYPE, outcome);
  }

  /** Runs a relayed {@code toa call} command line and answers what it printed and its exit code. */
  private static void relay(HttpExchange exchange, Served served, byte[] body) throws IOException {
    RelayedCommand command;
    try {
      command = RelayedCommand.read(body);
    } catch (Wire.Malformed e) {
      answer(exchange, 400, "the body is not a relayed command line: " + e.getMessage());
      return;
    }
    if (!Relay.relayable(command.args())) {
      answer(
          exchange,
          400,
          "the control channel runs toa call with call's own options only; run other command lines where they were typed");
      return;
    }
    send(exchange, 200, RelayedCommand.MEDIA_TYPE, Toa.relayed(command, served).bytes());
  }

  private static byte[] body(InputStream in) throws IOException {
    try (in) {
      return in.readNBytes(MAX_BODY + 1);
    }
  }

  /** A refusal, on either route in the one form of failures. */
  private static void answer(HttpExchange exchange, int status, String problem) throws IOException {
    send(exchange, status, Wire.MEDIA_TYPE, Replies.failure(Failure.Code.CONTRACT, problem));
  }

  private static void send(HttpExchange exchange, int status, String mediaType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", mediaType);
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }
}
