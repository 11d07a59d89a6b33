package io.toa4j.http;

import io.toa4j.api.ToaException;

/**
 * A request about identities that cannot be done, with a reason a caller can act on and a message
 * that says what is wrong and what to do.
 */
public final class IdentityException extends ToaException {
  private static final long serialVersionUID = 1L;

  /** Why. */
  public enum Reason {
    /** A name, password, scope or lifetime that does not fit its rule. */
    MALFORMED,
    /** No identity has the name. */
    UNKNOWN,
    /** An identity already has the name. */
    TAKEN
  }

  private final Reason reason;

  IdentityException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
