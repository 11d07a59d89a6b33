package io.toa4j.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the runtime kept of a parked message beside the bus's copy ({@link Admin#history}): its
 * failures, the newest last, its last failure's trace, and the operators' replays and discards.
 *
 * @param failures each failed attempt, the newest {@code 20}: across replays, so a message parked
 *     again shows the failures before its replay too
 * @param trace the last failure's trace: the class of each throwable in its chain and the frames
 *     where it was thrown, never a throwable's message
 * @param actions each replay and discard, the newest {@code 20}
 */
public record ParkedHistory(List<Failed> failures, Optional<String> trace, List<Action> actions) {
  public ParkedHistory {
    failures = List.copyOf(failures);
    Objects.requireNonNull(trace, "trace");
    actions = List.copyOf(actions);
  }

  /**
   * A failed attempt.
   *
   * @param attempt which delivery of the message it was, from 1
   */
  public record Failed(Instant at, int attempt, String code, String reason) {}

  /**
   * An operator's replay or discard.
   *
   * @param action {@code replayed} or {@code discarded}
   * @param by who, as the operator's face was told: the console's identity, or the command line's
   *     user
   * @param reason a discard's reason
   */
  public record Action(Instant at, String action, String by, Optional<String> reason) {}
}
