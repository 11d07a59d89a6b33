package io.toa4j.http;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Answer;
import io.toa4j.runtime.Toa;
import java.util.Optional;
import org.eclipse.jetty.server.Response;

/**
 * The {@code Idempotency-Key} contract: a request's key, its caller, method and route become the
 * identity of the call it makes, so a retried request is answered with the first answer through
 * every {@code once} hop, and a caller never reaches another's answers.
 *
 * <ul>
 *   <li>A malformed key is 400; a route with {@code io:idempotency-key: required} answers 400 to an
 *       unsafe method (anything but GET and HEAD) sent without one.
 *   <li>A request whose key is being answered right now in this gateway is 409: retry it unchanged.
 *   <li>A key used before with a different request (body, query, record) is 422.
 *   <li>An answer from the operation's inbox carries {@code idempotent-replayed: true}; an answer of
 *       an operation that remembers its calls carries {@code idempotency-ttl: <seconds>}, its
 *       retention, counted from the first answer.
 * </ul>
 *
 * <p>Without a key nothing changes: the call gets a fresh identity. Thread-safe.
 */
final class Idempotency {
  static final String REPLAYED = "idempotent-replayed";
  static final String TTL = "idempotency-ttl";

  private final Toa application;
  private final KeysInFlight inFlight = new KeysInFlight();

  Idempotency(Toa application) {
    this.application = application;
  }

  /**
   * Calls the route's operation under the identity the request's key gives, or a fresh one without
   * a key, and puts the replay and retention headers on the response.
   *
   * @param caller the id of the identity the request is made by
   * @throws Problem 400, 409 or 422 as above; nothing was called or committed
   */
  Reply call(org.eclipse.jetty.server.Request request, Response response, Route route, String endpoint, String caller, Request call) {
    String method = request.getMethod();
    Optional<IdempotencyKey> key = IdempotencyKey.of(request.getHeaders().getValuesList(IdempotencyKey.HEADER));
    if (key.isEmpty()) {
      if (route.directives().keyRequired() && !method.equals("GET") && !method.equals("HEAD")) {
        throw new Problem(400, "IDEMPOTENCY_KEY_REQUIRED", method + " " + route.path()
            + " requires an idempotency-key header; send a unique key, such as a random UUID, and the same key when retrying");
      }
      return application.call(endpoint, call);
    }
    String identity = key.get().identity(caller, method, route.path());
    if (!inFlight.take(identity)) {
      throw new Problem(409, "IDEMPOTENCY_KEY_IN_USE",
          "a request with this idempotency-key is still being answered; retry this one unchanged once it is");
    }
    try {
      Answer answer = application.answer(endpoint, call, identity);
      if (answer.reply() instanceof Reply.Output) {
        if (answer.replayed()) response.getHeaders().put(REPLAYED, "true");
        answer.retention().ifPresent(r -> response.getHeaders().put(TTL, Long.toString(r.toSeconds())));
      }
      return answer.reply();
    } catch (Failure f) {
      if (f.code() != Failure.Code.IDENTITY_REUSED) throw f;
      throw new Problem(422, "IDEMPOTENCY_KEY_REUSED", "this idempotency-key was used before with a different request on "
          + method + " " + route.path() + "; a retry must repeat its request exactly, and a new request needs a new key");
    } finally {
      inFlight.release(identity);
    }
  }
}
