package io.toa4j.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * One committed change of one record, applied atomically or not at all.
 *
 * @param expectedVersion the version the change was computed from: 0 when the record is to be
 *     created, else the version it must still be at (compare-and-swap)
 * @param record the record after the change; its version is {@code expectedVersion + 1}
 * @param outbox what leaves after the commit (the fact of the change, the tasks the operation
 *     sent), committed with the record or not at all; empty when no one consumes the component's
 *     events and the operation sent no task
 * @param inbox the answer to the call that made the change, for an operation that declares {@code
 *     once}; committed with the record or not at all
 */
public record Write(
    long expectedVersion,
    StoredRecord record,
    Optional<OutboxEntry> outbox,
    Optional<InboxEntry> inbox) {
  public Write {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(outbox, "outbox");
    Objects.requireNonNull(inbox, "inbox");
    if (inbox.isPresent() && inbox.get().reply().isEmpty()) {
      throw new IllegalArgumentException(
          "a write records the answer to its call; the inbox entry of "
              + inbox.get().identity()
              + " has none");
    }
    if (record.version() != expectedVersion + 1) {
      throw new IllegalArgumentException(
          "a write moves a record from version "
              + expectedVersion
              + " to "
              + (expectedVersion + 1)
              + ", not to "
              + record.version());
    }
  }

  /** A write with neither an outbox nor an inbox entry. */
  public Write(long expectedVersion, StoredRecord record) {
    this(expectedVersion, record, Optional.empty(), Optional.empty());
  }

  /** A write with an outbox entry and no inbox entry. */
  public Write(long expectedVersion, StoredRecord record, Optional<OutboxEntry> outbox) {
    this(expectedVersion, record, outbox, Optional.empty());
  }
}
