package io.toa4j.spring;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.idempotency.IdempotencyRefusal;
import io.toa4j.idempotency.IdempotentCalls;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.util.Collections;

/**
 * The call a Spring MVC request makes, under the {@code Idempotency-Key} contract the HTTP gateway
 * keeps, through the same code ({@link IdempotentCalls}): a controller method takes it as a
 * parameter and makes its call with it.
 *
 * <pre>{@code
 * @PostMapping("/topups")
 * ResponseEntity<?> record(@RequestBody Topup topup, @IdempotencyKeyRequired IdempotentCall call) {
 *   Reply reply = call.call("billing.topups.record", Request.of(id, input));
 *   ...
 * }
 * }</pre>
 *
 * <p>The identity of the call is derived from the request's key, its caller (the servlet
 * principal's name; empty for an anonymous request), its method and the route as mapped ({@code
 * /wallets/{id}}, never the request's path). A retry is answered with the first answer and the
 * header {@code idempotent-replayed: true}; an operation that remembers its calls adds {@code
 * idempotency-ttl}. Without a key the call gets a fresh identity, unless the route requires one.
 * One per request; not thread-safe.
 */
public final class IdempotentCall {
  private final IdempotentCalls calls;
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final String route;
  private final boolean keyRequired;

  IdempotentCall(
      IdempotentCalls calls,
      HttpServletRequest request,
      HttpServletResponse response,
      String route,
      boolean keyRequired) {
    this.calls = calls;
    this.request = request;
    this.response = response;
    this.route = route;
    this.keyRequired = keyRequired;
  }

  /**
   * Calls the operation under the identity the request's key gives, and puts the contract's headers
   * on the response.
   *
   * @param endpoint {@code namespace.name.operation}
   * @throws IdempotencyRefusal 400, 409 or 422, answered as a problem by the starter; nothing was
   *     called or committed
   * @throws Failure when the call fails otherwise, answered as a problem with its code's status
   */
  public Reply call(String endpoint, Request call) {
    Principal principal = request.getUserPrincipal();
    IdempotentCalls.Answered answered =
        calls.call(
            Collections.list(request.getHeaders(IdempotentCalls.HEADER)),
            keyRequired,
            principal == null ? "" : principal.getName(),
            request.getMethod(),
            route,
            endpoint,
            call);
    answered.headers().forEach(response::setHeader);
    return answered.reply();
  }

  /** The route as mapped, such as {@code /wallets/{id}}: a part of the call's identity. */
  public String route() {
    return route;
  }
}
