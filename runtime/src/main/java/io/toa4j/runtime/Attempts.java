package io.toa4j.runtime;

import io.toa4j.api.Attempt;
import io.toa4j.api.Failure;
import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The marks of the attempts of operations declared {@code external}, kept in the system store
 * {@code system.attempts}: one record per call being attempted, named by a hash of the operation
 * and the call's identity, committed as "started" before the operation runs and removed when it
 * ends. A mark found started by the next attempt is an attempt whose process died between starting
 * and ending: its outcome is unknown. Marks change by compare-and-swap on their version, like any
 * record, so two attempts of one call racing (a redelivery while the first still runs elsewhere)
 * leave one mark and count each start.
 *
 * <p>A mark stays while its call has an attempt whose outcome is unknown: until an attempt ends, or
 * forever for a message parked as {@code OUTCOME_UNKNOWN} and then discarded (one small record per
 * such message). Thread-safe.
 */
final class Attempts {
  /** The system store's name: {@code system.attempts}. */
  static final String STORE = "attempts";

  private static final int RACES = 20;
  private static final HexFormat HEX = HexFormat.of();

  private final Supplier<Store> store;
  private final Clock clock;

  /**
   * @param store opened on first use, so a context without external operations never creates it
   */
  Attempts(Supplier<Store> store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /**
   * An attempt marked started.
   *
   * @param version the version of its mark, which it removes when it ends
   * @param previous the attempts before it whose outcome is unknown; empty when there are none
   */
  record Started(String id, long version, Optional<Attempt> previous) {}

  /**
   * Marks an attempt of the call started, committed before it runs.
   *
   * @param allowed how many attempts with their outcome unknown the operation allows
   * @throws Failure {@code OUTCOME_UNKNOWN} when more than {@code allowed} attempts ended unknown:
   *     the operation is not run again
   */
  Started start(String endpoint, String identity, int allowed) {
    String id = id(endpoint, identity);
    long now = clock.millis();
    for (int race = 0; race < RACES; race++) {
      Optional<StoredRecord> stored = store.get().read(id);
      int unknown =
          stored.map(r -> Binding.object(r.state()).path("unknown").asInt() + 1).orElse(0);
      long first = stored.map(r -> Binding.object(r.state()).path("first").asLong()).orElse(now);
      long last = stored.map(r -> Binding.object(r.state()).path("last").asLong()).orElse(now);
      if (unknown > allowed) {
        throw new Failure(
            Failure.Code.OUTCOME_UNKNOWN,
            endpoint
                + " was attempted "
                + unknown
                + " times for the call "
                + identity
                + " with the outcome unknown (each attempt's"
                + " process died before it ended); reconcile with the provider under the key "
                + identity
                + ", then replay or discard",
            Map.of(
                "key",
                identity,
                "unknown",
                Integer.toString(unknown),
                "first",
                Instant.ofEpochMilli(first).toString(),
                "last",
                Instant.ofEpochMilli(last).toString()));
      }
      ObjectNode state =
          Binding.VALUES
              .createObjectNode()
              .put("endpoint", endpoint)
              .put("identity", identity)
              .put("unknown", unknown)
              .put("first", first)
              .put("last", now);
      long version = stored.map(StoredRecord::version).orElse(0L);
      StoredRecord mark =
          new StoredRecord(
              id,
              version + 1,
              stored.map(StoredRecord::created).orElse(now),
              now,
              new Json(state.toString()));
      if (store.get().commit(new Write(version, mark)) == Outcome.COMMITTED) {
        Optional<Attempt> previous =
            unknown == 0
                ? Optional.empty()
                : Optional.of(
                    new Attempt(
                        identity,
                        unknown,
                        Instant.ofEpochMilli(first),
                        Instant.ofEpochMilli(last)));
        return new Started(id, version + 1, previous);
      }
    }
    throw new Failure(
        Failure.Code.CONCURRENCY,
        endpoint
            + ": "
            + RACES
            + " attempts of the call "
            + identity
            + " raced to start; it is tried again");
  }

  /**
   * Ends the attempt: its mark is removed, whatever the operation answered or threw (an attempt
   * that ended knows its outcome). A mark another attempt started meanwhile is left to that one.
   */
  void ended(Started started) {
    store.get().remove(started.id(), started.version());
  }

  /** The mark's record id: 32 hexadecimal characters of {@code SHA-256(endpoint \n identity)}. */
  static String id(String endpoint, String identity) {
    byte[] digest =
        Fingerprints.digest().digest((endpoint + "\n" + identity).getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(digest, 0, 16);
  }
}
