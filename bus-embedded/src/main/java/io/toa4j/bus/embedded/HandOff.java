package io.toa4j.bus.embedded;

import io.toa4j.spi.Delivery;
import io.toa4j.spi.Verdict;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One event handed to a handler before it was stored: between the publish that waits for its
 * verdict and the handler thread that gives it.
 *
 * <p>The publish waits a short while ({@link #await}). A verdict in time is the publish's to act
 * on: {@code Done} stores nothing, another verdict stores the message as it stands. A verdict that
 * comes later finds the message being stored ({@link State#STORING}) or stored claimed ({@link
 * #stored}): it is recorded like any claimed message's, by whichever side comes second. When the
 * publish gives up on storing it ({@link #dropped}), a later verdict is dropped: the publish
 * failed, and the message is published again.
 *
 * <p>Its states, and who moves them (every move under this object's monitor):
 *
 * <ul>
 *   <li>{@code RUNNING}: handed to a handler, no verdict yet. The handler moves it to {@code
 *       ANSWERED} ({@link #answered}); the publish, once its wait is over, to {@code STORING}
 *       ({@link #await}).
 *   <li>{@code ANSWERED}: the verdict came in time. Final: the publish acts on it.
 *   <li>{@code STORING}: the publish stores the message claimed. A verdict given now is kept for
 *       the publish, which records it once the row is stored ({@link #stored} returns it; the state
 *       stays, final); without one the publish moves it to {@code STORED}; when it could not store
 *       the row, to {@code DROPPED} ({@link #dropped}).
 *   <li>{@code STORED}: stored claimed, no verdict yet. Final: the handler records its verdict on
 *       the claim {@link #answered} returns.
 *   <li>{@code DROPPED}: the publish gave up on the message (it fails, and is published again).
 *       Final: a verdict given later is dropped.
 * </ul>
 *
 * <p>So each verdict is acted on exactly once, by the side that comes second, or by nobody when the
 * message was dropped. A hand-off holds nothing but its state: a side that throws, {@code Error}
 * included, leaves nothing to release (the handler's room is the subscriber's, given back in its
 * {@code finally}). Checked with Lincheck's model checker. Thread-safe.
 */
final class HandOff {
  private enum State {
    RUNNING,
    ANSWERED,
    STORING,
    STORED,
    DROPPED
  }

  private final Delivery delivery;
  private State state = State.RUNNING;
  private Verdict verdict;
  private Claim claim;

  HandOff(Delivery delivery) {
    this.delivery = delivery;
  }

  Delivery delivery() {
    return delivery;
  }

  /**
   * The handler's verdict, from its thread.
   *
   * @return the claim to record the verdict on, when the publish stored the message claimed before
   *     the verdict came; else empty, the publish acting on it or having dropped it
   */
  synchronized Optional<Claim> answered(Verdict given) {
    switch (state) {
      case RUNNING -> {
        verdict = given;
        state = State.ANSWERED;
        notifyAll();
        return Optional.empty();
      }
      case STORING -> {
        verdict = given; // the publish records it once the row is stored
        return Optional.empty();
      }
      case STORED -> {
        return Optional.of(claim);
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /**
   * Waits for the verdict until {@code deadline} (of {@link System#nanoTime}); when none came, the
   * message is to be stored claimed, and this says so to the handler.
   *
   * @return the verdict given in time; empty when the message is now being stored
   */
  synchronized Optional<Verdict> await(long deadline) {
    boolean interrupted = false;
    while (state == State.RUNNING) {
      long left = deadline - System.nanoTime();
      if (left <= 0) break;
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        interrupted = true;
        break;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    if (state == State.ANSWERED) return Optional.of(verdict);
    state = State.STORING;
    return Optional.empty();
  }

  /**
   * The message is stored claimed, as {@code stored}.
   *
   * @return the verdict the handler gave while it was being stored, for the publish to record;
   *     empty when it has not given one, and will record it itself
   */
  synchronized Optional<Verdict> stored(Claim stored) {
    if (verdict != null) return Optional.of(verdict);
    claim = stored;
    state = State.STORED;
    return Optional.empty();
  }

  /**
   * The message was not stored (the store failed, or its queue held it already): a later verdict is
   * dropped.
   */
  synchronized void dropped() {
    state = State.DROPPED;
  }
}
