package io.toa4j.idempotency;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Answer;
import io.toa4j.runtime.InFlight;
import io.toa4j.runtime.Toa;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code Idempotency-Key} contract, apart from any server: a request's key, its caller, method
 * and route become the identity of the call it makes, so a retried request is answered with the
 * first answer through every {@code once} hop, and a caller never reaches another's answers. The
 * HTTP gateway and the Spring MVC support both answer their requests through it.
 *
 * <ul>
 *   <li>A malformed key is 400; a route that requires a key answers 400 to an unsafe method
 *       (anything but GET and HEAD) sent without one.
 *   <li>A request whose key is being answered right now through this instance waits for that
 *       answer, at most {@link #DEFAULT_ATTACH} unless told otherwise, and is then answered as a
 *       retry after it would be: with the first answer, replayed, when the operation declares
 *       {@code once}. Still not answered when the wait is over: 409, retry it unchanged.
 *   <li>A key used before with a different request (body, query, record) is 422.
 *   <li>An answer from the operation's inbox carries {@code idempotent-replayed: true}; an answer
 *       of an operation that remembers its calls carries {@code idempotency-ttl: <seconds>}, its
 *       retention, counted from the first answer.
 * </ul>
 *
 * <p>Without a key nothing changes: the call gets a fresh identity. Thread-safe; one instance per
 * server, so that its in-flight keys cover every request the server answers.
 */
public final class IdempotentCalls {
  /** The request header that carries the key. */
  public static final String HEADER = IdempotencyKey.HEADER;

  /** The response header that marks a replayed answer. */
  public static final String REPLAYED = "idempotent-replayed";

  /** The response header that tells the retention of the route's operation, in seconds. */
  public static final String TTL = "idempotency-ttl";

  /** How long a request waits, by default, for the request with its key that is being answered. */
  public static final Duration DEFAULT_ATTACH = Duration.ofSeconds(5);

  /**
   * The counter of requests that found their key being answered and waited for it, in the
   * application's registry.
   */
  public static final String WAITS = "toa.idempotency.waits";

  private final Toa application;
  private final Duration attach;
  private final InFlight inFlight = new InFlight();

  public IdempotentCalls(Toa application) {
    this(application, DEFAULT_ATTACH);
  }

  /**
   * @param attach how long a request waits for the request with its key that is being answered,
   *     before it is refused with 409; zero refuses at once
   */
  public IdempotentCalls(Toa application, Duration attach) {
    this.application = application;
    if (attach.isNegative())
      throw new IllegalArgumentException(
          "a wait for a key in flight is zero or more; got " + attach);
    this.attach = attach;
  }

  /**
   * An operation's answer and the headers the contract puts on the response.
   *
   * @param headers {@value #REPLAYED} and {@value #TTL}, when they apply; lowercase names
   */
  public record Answered(Reply reply, Map<String, String> headers) {
    public Answered {
      headers = Map.copyOf(headers);
    }
  }

  /**
   * Calls the route's operation under the identity the request's key gives, or a fresh one without
   * a key.
   *
   * @param keyFields the values of every {@code idempotency-key} field of the request, in order
   * @param keyRequired whether the route requires a key on its unsafe methods
   * @param caller the id of the identity the request is made by (empty for the anonymous caller)
   * @param method the request's method, such as {@code POST}
   * @param route the route as declared, such as {@code /billing/wallets/:id/credits/}: never the
   *     request's path, whose ids would make each record's key space its own
   * @param endpoint {@code namespace.name.operation}
   * @throws IdempotencyRefusal 400, 409 or 422 as above; nothing was called or committed
   * @throws Failure when the call fails otherwise
   */
  public Answered call(
      List<String> keyFields,
      boolean keyRequired,
      String caller,
      String method,
      String route,
      String endpoint,
      Request call) {
    Optional<IdempotencyKey> key = IdempotencyKey.of(keyFields);
    if (key.isEmpty()) {
      if (keyRequired && !method.equals("GET") && !method.equals("HEAD")) {
        throw new IdempotencyRefusal(
            400,
            "IDEMPOTENCY_KEY_REQUIRED",
            method
                + " "
                + route
                + " requires an idempotency-key header; send a unique key, such as a random UUID, and the same key when retrying");
      }
      return new Answered(application.call(endpoint, call), Map.of());
    }
    String identity = key.get().identity(caller, method, route);
    if (!inFlight.take(identity, attach, () -> application.metrics().counter(WAITS).increment())) {
      throw new IdempotencyRefusal(
          409,
          "IDEMPOTENCY_KEY_IN_USE",
          "a request with this idempotency-key is still being answered after "
              + attach.toMillis()
              + " ms;"
              + " retry this one unchanged once it is");
    }
    try {
      Answer answer = application.answer(endpoint, call, identity);
      Map<String, String> headers = new LinkedHashMap<>();
      if (answer.reply() instanceof Reply.Output) {
        if (answer.replayed()) headers.put(REPLAYED, "true");
        answer.retention().ifPresent(r -> headers.put(TTL, Long.toString(r.toSeconds())));
      }
      return new Answered(answer.reply(), headers);
    } catch (Failure f) {
      if (f.code() != Failure.Code.IDENTITY_REUSED) throw f;
      throw new IdempotencyRefusal(
          422,
          "IDEMPOTENCY_KEY_REUSED",
          "this idempotency-key was used before with a different request on "
              + method
              + " "
              + route
              + "; a retry must repeat its request exactly, and a new request needs a new key");
    } finally {
      inFlight.release(identity);
    }
  }
}
