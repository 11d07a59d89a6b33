package io.toa4j.spi;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * How one part of a process that depends on a server (an outbox's sweeps, a queue's deliveries, the
 * answering of calls) logs an outage of that server: two lines, not one per failed attempt.
 *
 * <ul>
 *   <li>The first failure after a success (or since the start) is one WARN naming the part and the
 *       failure's message, without its stack trace unless DEBUG is on for the logger.
 *   <li>Further failures are logged at DEBUG only, each with its stack trace.
 *   <li>The first success after failures is one INFO: the part is back, after how many seconds.
 *   <li>A part whose attempts run side by side (deliveries of one queue, calls of one component)
 *       takes a ticket when an attempt begins ({@link #attempt()}) and hands it to {@link
 *       #failed(Throwable, long)}: an attempt begun before the part came back that fails after it
 *       (it held a connection the outage cut, say) is logged at DEBUG and opens no new outage, so
 *       one outage stays two lines however many attempts were in flight.
 * </ul>
 *
 * <p>The parts that use it retry on their own (a sweep, a redelivery); this only says what to log.
 * An instance is one part: one outage log per outbox, per queue, per call queue. Thread-safe: of
 * failures racing to open an outage, one logs the WARN; of successes racing to close it, one logs
 * the INFO.
 */
public final class OutageLog {
  private final Logger log;
  private final String part;
  private final Clock clock;
  private final AtomicReference<State> state = new AtomicReference<>(new State(null, 0));

  /**
   * Since when the part fails (null while it works) and how many outages it came back from, in one
   * value so that opening and closing an outage are each one compare-and-set.
   */
  private record State(@Nullable Instant since, long ended) {}

  /**
   * @param part what fails and comes back, as a line starts with it: "The outbox of
   *     billing.wallets"
   */
  public OutageLog(Logger log, String part) {
    this(log, part, Clock.systemUTC());
  }

  public OutageLog(Logger log, String part, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.part = Objects.requireNonNull(part, "part");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The ticket of an attempt that begins now, for {@link #failed(Throwable, long)}. */
  public long attempt() {
    return current().ended();
  }

  /**
   * Records a failure of an attempt that began now: a WARN when it is the first since the last
   * success, else a DEBUG line.
   *
   * @return whether this failure began an outage
   */
  public boolean failed(Throwable cause) {
    return failed(cause, Long.MAX_VALUE);
  }

  /**
   * Records a failure of the attempt with the ticket {@code attempt}: a WARN when it is the first
   * since the last success and the attempt began after that success, else a DEBUG line.
   *
   * @return whether this failure began an outage
   */
  public boolean failed(Throwable cause, long attempt) {
    while (true) {
      State now = current();
      if (attempt < now.ended()) {
        log.debug(
            "{} failed in an attempt begun before it came back: {}", part, message(cause), cause);
        return false;
      }
      if (now.since() != null) {
        log.debug("{} fails again: {}", part, message(cause), cause);
        return false;
      }
      if (state.compareAndSet(now, new State(clock.instant(), now.ended()))) break;
    }
    if (log.isDebugEnabled()) {
      log.warn(
          "{} fails: {}. It is tried again; further failures are logged at DEBUG until it works",
          part,
          message(cause),
          cause);
    } else {
      log.warn(
          "{} fails: {}. It is tried again; further failures are logged at DEBUG until it works",
          part,
          message(cause));
    }
    return true;
  }

  /**
   * Records a success: an INFO when it ends an outage, else nothing.
   *
   * @return whether this success ended an outage
   */
  public boolean succeeded() {
    while (true) {
      State now = current();
      Instant since = now.since();
      if (since == null) return false; // the usual case: one volatile read
      if (state.compareAndSet(now, new State(null, now.ended() + 1))) {
        log.info(
            "{} is back after {} s",
            part,
            Math.max(0, Duration.between(since, clock.instant()).toSeconds()));
        return true;
      }
    }
  }

  /** Whether it failed since its last success. */
  public boolean failing() {
    return current().since() != null;
  }

  /** The state, never null: it is set once built and only ever replaced. */
  private State current() {
    return Objects.requireNonNull(state.get());
  }

  /**
   * Whether the failure says a server is out of reach: an {@link UnreachableException} in its chain
   * of causes.
   */
  public static boolean isOutage(Throwable failure) {
    for (Throwable at = failure; at != null; at = at.getCause()) {
      if (at instanceof UnreachableException) return true;
      if (at.getCause() == at) break;
    }
    return false;
  }

  private static String message(Throwable cause) {
    if (cause == null) return "(no reason given)";
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }
}
