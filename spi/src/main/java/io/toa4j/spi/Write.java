package io.toa4j.spi;

import java.util.Objects;

/**
 * One committed change of one record, applied atomically or not at all.
 *
 * @param expectedVersion the version the change was computed from: 0 when the record is to be
 *     created, else the version it must still be at (compare-and-swap)
 * @param record the record after the change; its version is {@code expectedVersion + 1}
 */
public record Write(long expectedVersion, StoredRecord record) {
  public Write {
    Objects.requireNonNull(record, "record");
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
}
