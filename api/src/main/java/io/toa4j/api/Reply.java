package io.toa4j.api;

import java.util.Optional;

/**
 * What a call answers when it does not fail: an output, or a refusal. Failures are thrown as {@link
 * Failure}.
 */
public sealed interface Reply {
  /**
   * A value: for a transition that returned its entry, the record; otherwise what the operation
   * returned, as plain values (maps, lists, strings, numbers, booleans); empty for nothing.
   */
  record Output(Optional<Object> value) implements Reply {}

  /** The operation refused. */
  record Refused(Refusal refusal) implements Reply {}
}
