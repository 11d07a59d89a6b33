package io.toa4j.http;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.idempotency.IdempotencyRefusal;
import io.toa4j.idempotency.IdempotentCalls;
import io.toa4j.runtime.Toa;
import java.time.Duration;
import org.eclipse.jetty.server.Response;

/**
 * The {@code Idempotency-Key} contract ({@link IdempotentCalls}) on the gateway's Jetty requests:
 * the route's own requirement, the contract's headers on the response, its refusals as problems.
 * Thread-safe.
 */
final class Idempotency {
  private final IdempotentCalls calls;

  /**
   * @param attach how long a request waits for the request with its key that is being answered
   */
  Idempotency(Toa application, Duration attach) {
    this.calls = new IdempotentCalls(application, attach);
  }

  /**
   * Calls the route's operation under the identity the request's key gives, or a fresh one without
   * a key, and puts the replay and retention headers on the response.
   *
   * @param keyRequired whether the route's method requires the header
   * @param path the route's path as declared
   * @param caller the id of the identity the request is made by
   * @throws Problem 400, 409 or 422 as {@link IdempotentCalls} says; nothing was called or
   *     committed
   */
  Reply call(
      org.eclipse.jetty.server.Request request,
      Response response,
      boolean keyRequired,
      String path,
      String endpoint,
      String caller,
      Request call) {
    try {
      IdempotentCalls.Answered answered =
          calls.call(
              request.getHeaders().getValuesList(IdempotentCalls.HEADER),
              keyRequired,
              caller,
              request.getMethod(),
              path,
              endpoint,
              call);
      answered.headers().forEach(response.getHeaders()::put);
      return answered.reply();
    } catch (IdempotencyRefusal r) {
      throw new Problem(r.status(), r.code(), r.getMessage());
    }
  }
}
