package io.toa4j.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A call that failed: thrown, never returned. Nothing was committed.
 *
 * <p>Every failure has a stable {@link Code}. Behind a receiver or a task a transient failure is
 * retried and a permanent one is parked at once.
 */
public class Failure extends ToaException {
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
    /**
     * An operation that retries a lost compare-and-swap lost it on every attempt its retry policy
     * allows: other writes kept changing the record. Nothing was written; the same call may succeed
     * later.
     */
    CONTENTION(true, 503),
    /** The state an operation produced does not fit the entity's schema. */
    ENTITY_CONTRACT(false, 500),
    /** The operation replied with something outside its contract (an undeclared refusal code). */
    RESPONSE_CONTRACT(false, 500),
    /**
     * A call's identity, answered before, came again with a different request (an {@code
     * Idempotency-Key} reused with another body): a repeat must repeat its request.
     */
    IDENTITY_REUSED(false, 422),
    /**
     * A call of an operation that declares once came again after its answer's window and inside the
     * window that remembers it was answered: it is not run again, and its answer is no longer kept.
     * Its {@link #details()} say when it was answered and which record it wrote.
     */
    ALREADY_ANSWERED(false, 410),
    /**
     * An operation declared {@code external} was delivered again after more attempts with their
     * outcome unknown than it allows (their process died between starting and finishing): it is not
     * run again, and the message is parked for an operator to reconcile with the provider. Its
     * {@link #details()} say the key, how many attempts, and when they started.
     */
    OUTCOME_UNKNOWN(false, 502),
    /** A transition that retries called an operation that declares once. */
    UNREPEATABLE(false, 500),
    /**
     * A step of a continuous run answered what its journal cannot keep (not writable as JSON, or
     * larger than the journal takes): the run cannot be resumed past it, so it is parked.
     */
    UNRECORDABLE(false, 500),
    /**
     * The author's code threw a {@link LinkageError} (a missing method or class: it was compiled
     * against classes other than those it runs with): every attempt fails alike until it is built
     * again.
     */
    LINKAGE(false, 500),
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
  private final Map<String, String> details;

  public Failure(Code code, String message) {
    this(code, message, Map.of());
  }

  public Failure(Code code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.details = Map.of();
  }

  /**
   * A failure with facts a caller can act on beside its message, carried across processes and
   * answered over HTTP as members of the problem body.
   *
   * @param details names and values, in the order given
   */
  public Failure(Code code, String message, Map<String, String> details) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
    this.details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
  }

  public Code code() {
    return code;
  }

  /** Facts beside the message, by name; empty for most failures. */
  public Map<String, String> details() {
    return details;
  }
}
