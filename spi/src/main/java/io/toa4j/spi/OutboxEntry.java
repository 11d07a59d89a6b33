package io.toa4j.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The fact of one committed write, stored in the same transaction as the record, from which its
 * events are rendered and published after the commit.
 *
 * @param id 32 lowercase hexadecimal characters, ordered by time; the identities of the events
 *     rendered from it derive from this id, so a re-swept entry yields the same identities
 * @param created epoch milliseconds of the commit
 * @param change {@code { origin, state, input, trailers }}: the record before the write ({@code
 *     null} for a creation), after it, the input of the call, and the trailers the operation set.
 *     Not to be mutated once handed to or received from a store.
 * @param claimedUntil epoch milliseconds until which one process alone may publish it: its
 *     committer, which publishes it at once, or a sweep that claimed it; after that, any sweep may
 */
public record OutboxEntry(String id, long created, ObjectNode change, long claimedUntil) {
  public OutboxEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(change, "change");
  }

  /** An entry nobody claims: any sweep may take it at once. */
  public OutboxEntry(String id, long created, ObjectNode change) {
    this(id, created, change, created);
  }
}
