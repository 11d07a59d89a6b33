package io.toa4j.test;

import io.toa4j.spi.StoredRecord;
import io.toa4j.test.core.Values;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AssertProvider;

/**
 * A record of a component as its store holds it when read, or its absence: {@code
 * assertThat(toa.record("billing.wallets", id)).has("balance", 5000).hasVersion(1)}.
 *
 * @param component the component's label, {@code namespace.name}
 * @param id the record's id
 * @param stored what the store holds; empty when the record was never written
 */
public record RecordView(String component, String id, Optional<StoredRecord> stored)
    implements AssertProvider<RecordAssert> {
  /** Whether the record was ever written. */
  public boolean exists() {
    return stored.isPresent();
  }

  /**
   * Its {@code VERSION}: 1 after the first write, one more per committed write; 0 when never
   * written.
   */
  public long version() {
    return stored.map(StoredRecord::version).orElse(0L);
  }

  /** Its {@code CREATED}. */
  public Optional<Instant> created() {
    return stored.map(r -> Instant.ofEpochMilli(r.created()));
  }

  /** Its {@code UPDATED}. */
  public Optional<Instant> updated() {
    return stored.map(r -> Instant.ofEpochMilli(r.updated()));
  }

  /**
   * Its declared properties, and {@code id}, {@code VERSION}, {@code CREATED} and {@code UPDATED}
   * (epoch milliseconds), as plain values; empty when never written.
   */
  public Map<String, Object> properties() {
    return stored.map(Values::properties).orElse(Map.of());
  }

  /** A property's value, or null when the record does not have it. */
  public Object get(String property) {
    return properties().get(property);
  }

  @Override
  public RecordAssert assertThat() {
    return new RecordAssert(this);
  }

  @Override
  public String toString() {
    return "record "
        + component
        + " "
        + id
        + stored
            .map(r -> " at VERSION " + r.version() + ": " + r.state().text())
            .orElse(" (never written)");
  }
}
