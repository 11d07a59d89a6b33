package io.toa4j.api;

import java.util.Map;
import java.util.Optional;

/**
 * The fact of one committed write, as an event class sees it: rendered after the commit, from the
 * stored outbox entry, so a change recovered after a crash reads exactly as it did the first time.
 *
 * @param <E> the component's entity class
 */
public interface Change<E extends Entry> {
  /** The record before the write; empty when the write created it. */
  Optional<E> origin();

  /** The record after the write. */
  E state();

  /** The input of the call that made the write, as plain values; empty when it had none. */
  Optional<Object> input();

  /** What the operation put in {@link Entry#trailers()}: facts about the change, never stored. */
  Map<String, Object> trailers();

  /** Whether this write created the record. */
  default boolean creation() {
    return origin().isEmpty();
  }
}
