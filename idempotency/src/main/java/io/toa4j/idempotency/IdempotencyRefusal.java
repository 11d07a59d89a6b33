package io.toa4j.idempotency;

/**
 * A request the {@code Idempotency-Key} contract refuses, before anything is called or after the
 * engine found the key used for another request: the HTTP status to answer, toa4j's stable code and
 * a message that says what to do. Each edge answers it as its own problem body.
 *
 * <ul>
 *   <li>400 {@code IDEMPOTENCY_KEY}: a malformed key, or two fields;
 *   <li>400 {@code IDEMPOTENCY_KEY_REQUIRED}: no key where the route requires one;
 *   <li>409 {@code IDEMPOTENCY_KEY_IN_USE}: the same key is being answered now; retry unchanged;
 *   <li>422 {@code IDEMPOTENCY_KEY_REUSED}: the key was used before with a different request.
 * </ul>
 */
public final class IdempotencyRefusal extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  IdempotencyRefusal(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /** The HTTP status to answer: 400, 409 or 422. */
  public int status() {
    return status;
  }

  /** The stable code, such as {@code IDEMPOTENCY_KEY_REUSED}. */
  public String code() {
    return code;
  }
}
