package io.toa4j.runtime;

import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Records a part of toa4j around the runtime keeps on the context's storage, beside the components'
 * ({@code system.<name>}, {@link Admin#records}): read by id, created, and replaced by
 * compare-and-swap on their version; nothing else. The HTTP gateway keeps its identities here. The
 * names the runtime keeps for itself ({@code messages}, {@code attempts}) are not handed out, so
 * nothing around the runtime writes the runtime's own records. Thread-safe.
 */
public final class SystemRecords {
  /** The names of the system stores the runtime writes itself. */
  static final Set<String> RUNTIMES = Set.of("messages", Attempts.STORE, Continuity.STORE);

  private final String name;
  private final Supplier<Store> store;
  private final Clock clock;

  /**
   * One record as stored.
   *
   * @param id its id
   * @param version 1 when created, one more per replacement
   * @param created when it was created, in epoch milliseconds
   * @param updated when it was last written, in epoch milliseconds
   * @param json its state, a JSON object as text
   */
  public record Record(String id, long version, long created, long updated, String json) {}

  SystemRecords(String name, Supplier<Store> store, Clock clock) {
    this.name = name;
    this.store = store;
    this.clock = clock;
  }

  /** The store's name: these records are {@code system.<name>}. */
  public String name() {
    return name;
  }

  /** The record with this id, if there is one. */
  public Optional<Record> read(String id) {
    return store
        .get()
        .read(Objects.requireNonNull(id, "id"))
        .map(r -> new Record(r.id(), r.version(), r.created(), r.updated(), r.state().text()));
  }

  /**
   * Creates the record at version 1, unless one with this id exists.
   *
   * @param json a JSON object as text
   * @return whether it created it
   */
  public boolean create(String id, String json) {
    long now = clock.millis();
    return store.get().commit(new Write(0, new StoredRecord(id, 1, now, now, new Json(json))))
        == Outcome.COMMITTED;
  }

  /**
   * Replaces a record's state, unless it moved on since {@code current} was read.
   *
   * @param current the record as read
   * @param json its next state, a JSON object as text
   * @return whether it replaced it: false when another write came first, which a caller reads again
   */
  public boolean replace(Record current, String json) {
    StoredRecord next =
        new StoredRecord(
            current.id(), current.version() + 1, current.created(), clock.millis(), new Json(json));
    return store.get().commit(new Write(current.version(), next)) == Outcome.COMMITTED;
  }
}
