package io.toa4j.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What a call of an operation that declares {@code once} needs before it runs, read together: the
 * answer recorded for the call, and the record the call names.
 *
 * @param answer the call's inbox entry, if it is recorded and not forgotten, as {@link
 *     Store#recorded(String, long)} answers it
 * @param record the record, if it was ever written
 */
public record Reading(Optional<InboxEntry> answer, Optional<StoredRecord> record) {
  public Reading {
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(record, "record");
  }
}
