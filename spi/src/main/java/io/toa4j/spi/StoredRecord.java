package io.toa4j.spi;

import java.util.Objects;

/**
 * A record as stored: its system properties and its declared properties.
 *
 * @param id 32 lowercase hexadecimal characters
 * @param version 1 after the first write, one more per committed write
 * @param created epoch milliseconds of the first write
 * @param updated epoch milliseconds of the last write
 * @param state the declared properties only, a JSON object; never contains system properties
 */
public record StoredRecord(String id, long version, long created, long updated, Json state) {
  public StoredRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    if (version < 1) throw new IllegalArgumentException("a stored record's version is at least 1");
  }
}
