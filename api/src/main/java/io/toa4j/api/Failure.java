package io.toa4j.api;

import java.util.Objects;

/**
 * A call that failed: thrown, never returned. Nothing was committed.
 *
 * <p>Every failure has a stable {@link Code}. Behind a receiver or a task a transient failure is
 * retried and a permanent one is parked at once.
 */
public class Failure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The stable failure codes, each permanent or transient, each with its HTTP status. */
  public enum Code {
    /** The request does not fit the operation's contract. */
    CONTRACT(false, 400),
    /** The request names a component or an operation that does not exist. */
    ENDPOINT(false, 404),
    /** The record does not exist (yet: an event may outrun the creation it depends on). */
    NOT_FOUND(true, 404),
    /** The record is not at the version the request requires. */
    PRECONDITION(false, 412),
    /** Another write won the compare-and-swap and the operation does not retry. */
    CONCURRENCY(true, 409),
    /** The state an operation produced does not fit the entity's schema. */
    ENTITY_CONTRACT(false, 500),
    /** The operation replied with something outside its contract (an undeclared refusal code). */
    RESPONSE_CONTRACT(false, 500),
    /**
     * A call's identity, answered before, came again with a different request (an
     * {@code Idempotency-Key} reused with another body): a repeat must repeat its request.
     */
    IDENTITY_REUSED(false, 422),
    /** A transition that retries called an operation that declares once. */
    UNREPEATABLE(false, 500),
    /**
     * The call's component is hosted by no process, or its host did not answer in time (the call
     * may then have run: repeat it with the same identity).
     */
    UNAVAILABLE(true, 503),
    /** Anything else: an exception thrown by an operation, storage or bus. */
    SYSTEM(true, 500);

    private final boolean transientFailure;
    private final int status;

    Code(boolean transientFailure, int status) {
      this.transientFailure = transientFailure;
      this.status = status;
    }

    /** Whether the same message may succeed when tried again. */
    public boolean isTransient() {
      return transientFailure;
    }

    /** The HTTP status this failure is answered with. */
    public int status() {
      return status;
    }
  }

  private final Code code;

  public Failure(Code code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  public Failure(Code code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  public Code code() {
    return code;
  }
}
