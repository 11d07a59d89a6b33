package io.toa4j.tck.storage;

import static io.toa4j.tck.storage.Fixtures.A;
import static io.toa4j.tck.storage.Fixtures.B;
import static io.toa4j.tck.storage.Fixtures.JSON;
import static io.toa4j.tck.storage.Fixtures.answered;
import static io.toa4j.tck.storage.Fixtures.assertSame;
import static io.toa4j.tck.storage.Fixtures.entry;
import static io.toa4j.tck.storage.Fixtures.id;
import static io.toa4j.tck.storage.Fixtures.identities;
import static io.toa4j.tck.storage.Fixtures.json;
import static io.toa4j.tck.storage.Fixtures.record;
import static io.toa4j.tck.storage.Fixtures.remembered;
import static io.toa4j.tck.storage.Fixtures.reply;
import static io.toa4j.tck.storage.Fixtures.taskEntry;
import static io.toa4j.tck.storage.Fixtures.tasks;
import static io.toa4j.tck.storage.Fixtures.together;
import static io.toa4j.tck.storage.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Reading;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.tck.stack.Overflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * What every storage adapter does, as tests an adapter runs against its real engine by implementing
 * this interface in a few lines:
 *
 * <pre>{@code
 * class SqliteStorageTest implements StorageContract {
 *   @TempDir Path directory;
 *
 *   public Storage open() {
 *     return new SqliteStorageProvider().open(new StorageSettings(directory, Map.of()));
 *   }
 * }
 * }</pre>
 *
 * <p>Each test opens the storage with {@link #open()} and closes it itself. Adapters whose tests
 * share one server override {@link #component(String)} so that each test gets components of its
 * own, and clean them up after.
 */
public interface StorageContract extends SelectionContract {
  /**
   * Opens the storage under test: empty at the start of each test, and over the same data when
   * opened again within one test (so that a test can close it and look again).
   */
  Storage open();

  /**
   * The label of a component the tests use, {@code namespace.name}; each distinct {@code name} must
   * answer a distinct label, the same one throughout a test.
   */
  default String component(String name) {
    return "contract." + name;
  }

  /**
   * How many inbox entries the store holds, expired or not, counted by the adapter's own means (the
   * SPI has no such question: only these tests of the purge ask it).
   */
  long inboxSize(Store store);

  /** The answer recorded for a call, if it is recorded and not expired by {@code now}. */
  private static Optional<Json> answer(Store store, String identity, long now) {
    return store.recorded(identity, now).flatMap(InboxEntry::reply);
  }

  private Store wallets(Storage storage) {
    return storage.store(component("wallets"));
  }

  // -- records --------------------------------------------------------------------------------

  @Test
  default void commit_creation_isReadBackWithItsState() {
    try (Storage storage = open()) {
      Store store = wallets(storage);

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 5)))).isEqualTo(Outcome.COMMITTED);

      assertSame(store.read(A), Optional.of(record(A, 1, 1000, 5)));
      assertThat(store.read(B)).isEmpty();
    }
  }

  @Test
  default void commit_secondCreationOfTheSameId_conflictsAndKeepsTheFirst() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5)));

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 9)))).isEqualTo(Outcome.CONFLICT);
      assertThat(tree(store.read(A).orElseThrow().state()).get("balance").asInt()).isEqualTo(5);
    }
  }

  @Test
  default void commit_staleVersion_conflictsAndWritesNothing() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5)));
      store.commit(new Write(1, record(A, 2, 2000, 6)));

      assertThat(store.commit(new Write(1, record(A, 2, 3000, 7)))).isEqualTo(Outcome.CONFLICT);
      assertSame(store.read(A), Optional.of(record(A, 2, 2000, 6)));
      assertThat(store.commit(new Write(2, record(A, 3, 3000, 7)))).isEqualTo(Outcome.COMMITTED);
    }
  }

  @Test
  default void commit_updateOfARecordNeverCreated_conflicts() {
    try (Storage storage = open()) {
      Store store = wallets(storage);

      assertThat(store.commit(new Write(1, record(A, 2, 2000, 6)))).isEqualTo(Outcome.CONFLICT);
      assertThat(store.read(A)).isEmpty();
    }
  }

  @Test
  default void remove_atItsVersion_removesTheRecord_atAnotherVersionNothing() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5)));
      store.commit(new Write(1, record(A, 2, 2000, 6)));

      assertThat(store.remove(A, 1)).isFalse();
      assertSame(store.read(A), Optional.of(record(A, 2, 2000, 6)));
      assertThat(store.remove(B, 1)).isFalse();
      assertThat(store.remove(A, 2)).isTrue();
      assertThat(store.read(A)).isEmpty();
      assertThat(store.page(10, 0)).isEmpty();
      // removed, it can be created again from nothing
      assertThat(store.commit(new Write(0, record(A, 1, 3000, 7)))).isEqualTo(Outcome.COMMITTED);
    }
  }

  @Test
  default void page_answersInCreationOrderWithLimitAndOmit() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, new StoredRecord(B, 1, 1, 1, json(JSON.createObjectNode()))));
      store.commit(new Write(0, new StoredRecord(A, 1, 2, 2, json(JSON.createObjectNode()))));
      store.commit(new Write(0, new StoredRecord(id(7), 1, 2, 2, json(JSON.createObjectNode()))));

      assertThat(store.page(10, 0)).extracting(StoredRecord::id).containsExactly(B, id(7), A);
      assertThat(store.page(1, 1)).extracting(StoredRecord::id).containsExactly(id(7));
      assertThat(store.page(10, 3)).isEmpty();
    }
  }

  @Test
  default void commits_survive_closingAndReopening() {
    try (Storage storage = open()) {
      wallets(storage).commit(new Write(0, record(A, 1, 1000, 5)));
    }
    try (Storage storage = open()) {
      assertSame(wallets(storage).read(A), Optional.of(record(A, 1, 1000, 5)));
    }
  }

  @Test
  default void stores_ofDifferentComponents_doNotSeeEachOthersRows() {
    try (Storage storage = open()) {
      Store wallets = wallets(storage);
      Store topups = storage.store(component("topups"));
      wallets.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.of(entry(id(1), 1000)),
              Optional.of(answered("call-1", 5000))));

      assertThat(topups.read(A)).isEmpty();
      assertThat(topups.page(10, 0)).isEmpty();
      assertThat(topups.unpublished(10)).isEmpty();
      assertThat(answer(topups, "call-1", 1000)).isEmpty();
      assertThat(inboxSize(topups)).isZero();
      assertThat(topups.commit(new Write(0, record(A, 1, 1000, 9))))
          .as("the same id in another component")
          .isEqualTo(Outcome.COMMITTED);
      assertThat(tree(wallets.read(A).orElseThrow().state()).get("balance").asInt()).isEqualTo(5);
    }
  }

  @Test
  default void store_ofTheSameComponent_seesTheSameRows() {
    try (Storage storage = open()) {
      wallets(storage).commit(new Write(0, record(A, 1, 1000, 5)));

      assertSame(wallets(storage).read(A), Optional.of(record(A, 1, 1000, 5)));
    }
  }

  @Test
  default void storage_isTransactional() {
    try (Storage storage = open()) {
      assertThat(storage.transactional()).isTrue();
      assertThat(storage.describe()).isNotBlank();
    }
  }

  @Test
  default void write_toAVersionOtherThanTheNext_isRefusedBeforeReachingTheStore() {
    assertThatThrownBy(() -> new Write(1, record(A, 3, 1, 1)))
        .hasMessageContaining("from version 1 to 2");
  }

  // -- outbox ---------------------------------------------------------------------------------

  @Test
  default void commit_withOutboxEntry_storesBothAndTheEntryWaitsUnpublished() {
    try (Storage storage = open()) {
      Store store = wallets(storage);

      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));

      assertSame(store.unpublished(10), List.of(entry(id(1), 1000)));
    }
  }

  @Test
  default void commit_conflicting_storesNoOutboxEntry() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 6), Optional.of(entry(id(2), 1000)))))
          .isEqualTo(Outcome.CONFLICT);
      assertThat(store.commit(new Write(5, record(A, 6, 1000, 6), Optional.of(entry(id(3), 1000)))))
          .isEqualTo(Outcome.CONFLICT);

      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly(id(1));
    }
  }

  @Test
  default void unpublished_answersOldestFirst_atMostTheLimit() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      for (int i = 3; i >= 1; i--)
        store.commit(
            new Write(0, record(id(100 + i), 1, 1000, i), Optional.of(entry(id(i), 1000))));

      assertThat(store.unpublished(2)).extracting(OutboxEntry::id).containsExactly(id(1), id(2));
      assertThat(store.unpublishedCount()).as("the count has no limit").isEqualTo(3);
    }
  }

  @Test
  default void published_entriesLeaveUnpublished_andArePurgedAfterRetentionOnly() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(entry(id(2), 1000))));
      assertThat(store.unpublishedCount()).isEqualTo(2);

      store.published(List.of(id(1), "unknown"), 2000);
      store.published(List.of(), 2000);

      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly(id(2));
      assertThat(store.unpublishedCount()).as("a published entry is not counted").isEqualTo(1);
      assertThat(store.purgePublished(2000, 100)).isZero();
      assertThat(store.purgePublished(2001, 100)).isEqualTo(1);
      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly(id(2));
      assertThat(store.purgePublished(Long.MAX_VALUE, 100))
          .as("unpublished entries never expire")
          .isZero();
    }
  }

  @Test
  default void purgePublished_removesAtMostTheLimit() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      for (int i = 1; i <= 3; i++)
        store.commit(
            new Write(0, record(id(100 + i), 1, 1000, i), Optional.of(entry(id(i), 1000))));
      store.published(List.of(id(1), id(2), id(3)), 2000);

      assertThat(store.purgePublished(3000, 2)).isEqualTo(2);
      assertThat(store.purgePublished(3000, 2)).isEqualTo(1);
      assertThat(store.purgePublished(3000, 2)).isZero();
    }
  }

  @Test
  default void unpublished_survivesReopening() {
    try (Storage storage = open()) {
      wallets(storage).commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));
    }
    try (Storage storage = open()) {
      assertSame(wallets(storage).unpublished(10), List.of(entry(id(1), 1000)));
    }
  }

  // -- tasks in the outbox ----------------------------------------------------------------------

  @Test
  default void commit_withTasksAlone_storesAnEntryWithoutAChange_andItsTasksInOrder() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      OutboxEntry sent = taskEntry(id(1), 1000, "task-2", "task-1", "task-3");

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(sent))))
          .isEqualTo(Outcome.COMMITTED);

      assertSame(store.unpublished(10), List.of(sent));
      assertThat(store.unpublished(10).get(0).change()).isEmpty();
      assertThat(identities(store.unpublished(10).get(0)))
          .containsExactly("task-2", "task-1", "task-3");
    }
  }

  @Test
  default void commit_withAChangeAndTasks_storesBothInOneEntry() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      OutboxEntry both =
          new OutboxEntry(
              id(1),
              1000,
              Optional.of(json(JSON.createObjectNode().put("n", 1))),
              Optional.of(tasks("task-1", "task-2")),
              11_000);

      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.of(both), Optional.of(answered("call-1", 5000))));

      assertSame(store.unpublished(10), List.of(both));
    }
  }

  @Test
  default void commit_conflictingOrDuplicate_storesNoTasks() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.of(taskEntry(id(1), 1000, "task-1")),
              Optional.of(answered("call-1", 5000))));

      assertThat(
              store.commit(
                  new Write(
                      0, record(A, 1, 1000, 6), Optional.of(taskEntry(id(2), 1000, "task-2")))))
          .isEqualTo(Outcome.CONFLICT);
      assertThat(
              store.commit(
                  new Write(
                      5, record(A, 6, 1000, 6), Optional.of(taskEntry(id(3), 1000, "task-3")))))
          .isEqualTo(Outcome.CONFLICT);
      assertThat(
              store.commit(
                  new Write(
                      1,
                      record(A, 2, 2000, 6),
                      Optional.of(taskEntry(id(4), 2000, "task-4")),
                      Optional.of(answered("call-1", 6000)))))
          .isEqualTo(Outcome.DUPLICATE);

      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly(id(1));
      assertThat(identities(store.unpublished(10).get(0))).containsExactly("task-1");
    }
  }

  @Test
  default void claimAndPublished_takeAndMarkEntriesOfTasks_likeAnyOther() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(0, record(A, 1, 1000, 5), Optional.of(taskEntry(id(1), 1000, "task-1"))));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(entry(id(2), 1000))));

      List<OutboxEntry> claimed = store.claim(10, 1000, 5000);
      assertThat(claimed).extracting(OutboxEntry::id).containsExactly(id(1), id(2));
      assertSame(claimed.get(0).tasks(), Optional.of(tasks("task-1")));
      assertThat(claimed.get(0).claimedUntil()).isEqualTo(5000);
      assertThat(store.claim(10, 4999, 9000)).isEmpty();

      store.published(List.of(id(1)), 2000);
      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly(id(2));
      assertThat(store.claim(10, 5000, 9000)).extracting(OutboxEntry::id).containsExactly(id(2));
      assertThat(store.purgePublished(2001, 10)).isEqualTo(1);
    }
  }

  @Test
  default void unpublishedTasks_surviveReopening() {
    try (Storage storage = open()) {
      wallets(storage)
          .commit(
              new Write(
                  0,
                  record(A, 1, 1000, 5),
                  Optional.of(taskEntry(id(1), 1000, "task-1", "task-2"))));
    }
    try (Storage storage = open()) {
      assertSame(
          wallets(storage).unpublished(10), List.of(taskEntry(id(1), 1000, "task-1", "task-2")));
    }
  }

  // -- trace context in the outbox --------------------------------------------------------------

  @Test
  default void commit_withATraceContext_keepsItWithTheEntry_throughUnpublishedClaimAndReopening() {
    Json trace =
        json(
            JSON.createObjectNode()
                .put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .put("tracestate", "vendor=a,other=b"));
    OutboxEntry traced =
        new OutboxEntry(
            id(1),
            1000,
            Optional.of(json(JSON.createObjectNode().put("n", 1))),
            Optional.empty(),
            1000,
            Optional.of(trace));
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(traced)));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(entry(id(2), 1000))));

      assertSame(store.unpublished(10), List.of(traced, entry(id(2), 1000)));
    }
    try (Storage storage = open()) {
      List<OutboxEntry> claimed = wallets(storage).claim(10, 1000, 5000);
      assertThat(claimed).extracting(OutboxEntry::id).containsExactly(id(1), id(2));
      assertSame(claimed.get(0).trace(), Optional.of(trace));
      assertThat(claimed.get(1).trace())
          .as("an entry committed without a trace context has none")
          .isEmpty();
    }
  }

  @Test
  default void outboxEntry_withNeitherAChangeNorATask_isRefusedBeforeReachingTheStore() {
    assertThatThrownBy(() -> new OutboxEntry(id(1), 1000, Optional.empty(), Optional.empty(), 1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("neither a change nor a task");
  }

  // -- inbox ----------------------------------------------------------------------------------

  @Test
  default void commit_withInboxEntry_answersTheCallUntilItExpires() {
    try (Storage storage = open()) {
      Store store = wallets(storage);

      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      assertSame(answer(store, "call-1", 4999), Optional.of(reply()));
      assertThat(answer(store, "call-1", 5000)).isEmpty();
      assertThat(answer(store, "call-2", 1000)).isEmpty();
    }
  }

  @Test
  default void read_withACallIdentity_answersTheRecordAndTheCallsEntryTogether() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Reading both = store.read(A, "call-1", 4999);
      assertSame(both.record(), Optional.of(record(A, 1, 1000, 5)));
      assertThat(both.answer()).isEqualTo(store.recorded("call-1", 4999)).isPresent();
      assertSame(both.answer().get().reply().orElseThrow(), reply());

      assertSame(
          store.read(A, "call-1", 5000),
          new Reading(Optional.empty(), Optional.of(record(A, 1, 1000, 5))));
      assertThat(store.read(B, "call-1", 4999).record()).isEmpty();
      assertThat(store.read(B, "call-1", 4999).answer()).isEqualTo(both.answer());
      assertThat(store.read(B, "call-2", 1000))
          .isEqualTo(new Reading(Optional.empty(), Optional.empty()));
    }
  }

  @Test
  default void commit_conflicting_storesNoInboxEntry() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5)));

      assertThat(
              store.commit(
                  new Write(
                      0,
                      record(A, 1, 1000, 6),
                      Optional.empty(),
                      Optional.of(answered("call-1", 5000)))))
          .isEqualTo(Outcome.CONFLICT);
      assertThat(
              store.commit(
                  new Write(
                      5,
                      record(A, 6, 1000, 6),
                      Optional.of(entry(id(1), 1000)),
                      Optional.of(answered("call-2", 5000)))))
          .isEqualTo(Outcome.CONFLICT);

      assertThat(answer(store, "call-1", 1000)).isEmpty();
      assertThat(answer(store, "call-2", 1000)).isEmpty();
      assertThat(inboxSize(store)).isZero();
      assertThat(store.unpublished(10)).isEmpty();
      assertSame(store.read(A), Optional.of(record(A, 1, 1000, 5)));
    }
  }

  @Test
  default void commit_ofACallAlreadyAnswered_isADuplicateAndWritesNothing() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Outcome twin =
          store.commit(
              new Write(
                  1,
                  record(A, 2, 2000, 10),
                  Optional.of(entry(id(1), 2000)),
                  Optional.of(answered("call-1", 6000))));

      assertThat(twin).isEqualTo(Outcome.DUPLICATE);
      assertSame(store.read(A), Optional.of(record(A, 1, 1000, 5)));
      assertThat(store.unpublished(10)).isEmpty();
      assertThat(answer(store, "call-1", 4999)).isPresent();
      assertThat(answer(store, "call-1", 5000)).as("the first answer's expiry is kept").isEmpty();
    }
  }

  @Test
  default void commit_creationOfACallAlreadyAnswered_isADuplicateAndCreatesNothing() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Outcome twin =
          store.commit(
              new Write(
                  0,
                  record(B, 1, 2000, 10),
                  Optional.of(entry(id(1), 2000)),
                  Optional.of(answered("call-1", 6000))));

      assertThat(twin).isEqualTo(Outcome.DUPLICATE);
      assertThat(store.read(B)).isEmpty();
      assertThat(store.unpublished(10)).isEmpty();
      assertThat(inboxSize(store)).isEqualTo(1);
    }
  }

  @Test
  default void commit_ofAForgottenCall_runsAsANewOne() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Outcome later =
          store.commit(
              new Write(
                  1,
                  record(A, 2, 5000, 10),
                  Optional.empty(),
                  Optional.of(answered("call-1", 9000))));

      assertThat(later).isEqualTo(Outcome.COMMITTED);
      assertThat(answer(store, "call-1", 8999)).isPresent();
      assertThat(inboxSize(store))
          .as("the forgotten answer is replaced, not kept beside")
          .isEqualTo(1);
    }
  }

  @Test
  default void recorded_answersTheEntryWithItsExpiryAndFingerprint() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      InboxEntry entry = new InboxEntry("call-1", reply(), 5000, Optional.of("9f86d081884c7d65"));

      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(entry)));

      assertSame(store.recorded("call-1", 4999), Optional.of(entry));
      assertThat(store.recorded("call-1", 5000)).isEmpty();
      assertThat(store.recorded("call-2", 1000)).isEmpty();
    }
  }

  @Test
  default void recorded_entryWithoutAFingerprint_answersNone() {
    try (Storage storage = open()) {
      Store store = wallets(storage);

      store.commit(
          new Write(
              0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      assertThat(store.recorded("call-1", 1000))
          .hasValueSatisfying(e -> assertThat(e.fingerprint()).isEmpty());
    }
  }

  @Test
  default void commit_ofAForgottenCall_replacesItsFingerprint() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.empty(),
              Optional.of(new InboxEntry("call-1", reply(), 5000, Optional.of("first")))));

      store.commit(
          new Write(
              1,
              record(A, 2, 5000, 10),
              Optional.empty(),
              Optional.of(new InboxEntry("call-1", reply(), 9000, Optional.of("second")))));

      assertThat(store.recorded("call-1", 5000))
          .hasValueSatisfying(
              e -> {
                assertThat(e.fingerprint()).contains("second");
                assertThat(e.expires()).isEqualTo(9000);
              });
    }
  }

  @Test
  default void commit_twinWithAnotherFingerprint_isADuplicate_andKeepsTheFirst() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.empty(),
              Optional.of(new InboxEntry("call-1", reply(), 5000, Optional.of("first")))));

      Outcome twin =
          store.commit(
              new Write(
                  1,
                  record(A, 2, 2000, 10),
                  Optional.empty(),
                  Optional.of(new InboxEntry("call-1", reply(), 6000, Optional.of("other")))));

      assertThat(twin).isEqualTo(Outcome.DUPLICATE);
      assertThat(store.recorded("call-1", 2000))
          .hasValueSatisfying(e -> assertThat(e.fingerprint()).contains("first"));
    }
  }

  @Test
  default void purgeInbox_removesOnlyExpiredEntries_inBoundedBatches() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      for (int i = 1; i <= 5; i++) {
        store.commit(
            new Write(
                0,
                record(id(i), 1, 1000, i),
                Optional.empty(),
                Optional.of(answered("call-" + i, i <= 3 ? 2000 : 9000))));
      }

      assertThat(store.purgeInbox(2000, 2)).isEqualTo(2);
      assertThat(store.purgeInbox(2000, 2)).isEqualTo(1);
      assertThat(store.purgeInbox(2000, 2)).isZero();
      assertThat(inboxSize(store)).isEqualTo(2);
      assertThat(answer(store, "call-4", 2000)).isPresent();
    }
  }

  @Test
  default void recorded_afterItsAnswerExpires_answersTheRecordOfTheCallUntilItIsForgotten() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      InboxEntry entry = remembered("call-1", 1000, 5000, 20_000, A);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(entry)));

      assertSame(store.recorded("call-1", 4999), Optional.of(entry));
      InboxEntry late = store.recorded("call-1", 5000).orElseThrow();
      assertThat(late.reply()).as("the answer is no longer given").isEmpty();
      assertThat(late).isEqualTo(entry.at(5000));
      assertThat(late.answered()).isEqualTo(1000);
      assertThat(late.fingerprint()).contains("fp-call-1");
      assertThat(late.record()).contains(A);
      assertThat(store.read(B, "call-1", 19_999).answer()).contains(late);
      assertThat(store.recorded("call-1", 20_000)).isEmpty();
      assertThat(store.read(B, "call-1", 20_000).answer()).isEmpty();
    }
  }

  @Test
  default void commit_ofACallRememberedAfterItsAnswerExpired_isADuplicate_untilItIsForgotten() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.empty(),
              Optional.of(remembered("call-1", 1000, 5000, 20_000, A))));

      Outcome late =
          store.commit(
              new Write(
                  1,
                  record(A, 2, 19_999, 10),
                  Optional.of(entry(id(1), 19_999)),
                  Optional.of(remembered("call-1", 19_999, 30_000, 40_000, A))));
      assertThat(late).isEqualTo(Outcome.DUPLICATE);
      assertSame(store.read(A), Optional.of(record(A, 1, 1000, 5)));
      assertThat(store.unpublished(10)).isEmpty();

      Outcome forgotten =
          store.commit(
              new Write(
                  1,
                  record(A, 2, 20_000, 10),
                  Optional.empty(),
                  Optional.of(remembered("call-1", 20_000, 30_000, 40_000, A))));
      assertThat(forgotten).isEqualTo(Outcome.COMMITTED);
      assertThat(store.recorded("call-1", 20_000))
          .hasValueSatisfying(e -> assertThat(e.answered()).isEqualTo(20_000));
      assertThat(inboxSize(store)).isEqualTo(1);
    }
  }

  @Test
  default void purgeInbox_dropsExpiredAnswers_andRemovesEntriesOnlyOnceForgotten() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.empty(),
              Optional.of(remembered("call-1", 1000, 5000, 20_000, A))));
      store.commit(
          new Write(
              0,
              record(B, 1, 1000, 5),
              Optional.empty(),
              Optional.of(remembered("call-2", 1000, 9000, 20_000, B))));

      assertThat(store.purgeInbox(4999, 10)).isZero();
      assertThat(store.purgeInbox(5000, 10)).as("call-1's answer dropped").isEqualTo(1);
      assertThat(store.purgeInbox(5000, 10)).isZero();
      assertThat(inboxSize(store)).as("both calls still remembered").isEqualTo(2);
      assertThat(store.recorded("call-1", 1000).orElseThrow().reply())
          .as("the answer is gone from the store, not only hidden at a later now")
          .isEmpty();
      assertThat(store.recorded("call-2", 1000).orElseThrow().reply()).isPresent();

      assertThat(store.purgeInbox(19_999, 10)).as("call-2's answer dropped").isEqualTo(1);
      assertThat(store.purgeInbox(20_000, 1)).isEqualTo(1);
      assertThat(store.purgeInbox(20_000, 1)).isEqualTo(1);
      assertThat(store.purgeInbox(20_000, 1)).isZero();
      assertThat(inboxSize(store)).isZero();
    }
  }

  // -- concurrency ----------------------------------------------------------------------------

  /**
   * Threads read and move one record as fast as they can; every compare-and-swap has one winner,
   * and the record's version counts the commits that answered COMMITTED, each with its outbox row.
   */
  @Test
  default void commits_racingOnOneRecord_haveOneWinnerPerVersion() throws Exception {
    int threads = 8;
    int attemptsEach = 40;
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 0)));
      Set<Long> won = ConcurrentHashMap.newKeySet();
      AtomicLong outboxIds = new AtomicLong();

      List<Integer> wins =
          together(
              threads,
              thread -> {
                int mine = 0;
                for (int attempt = 0; attempt < attemptsEach; attempt++) {
                  StoredRecord seen = store.read(A).orElseThrow();
                  StoredRecord next =
                      record(
                          A,
                          seen.version() + 1,
                          2000,
                          tree(seen.state()).get("balance").asInt() + 1);
                  Write write =
                      new Write(
                          seen.version(),
                          next,
                          Optional.of(entry(id(outboxIds.incrementAndGet()), 2000)));
                  Outcome outcome = store.commit(write);
                  assertThat(outcome).isIn(Outcome.COMMITTED, Outcome.CONFLICT);
                  if (outcome == Outcome.COMMITTED) {
                    assertThat(won.add(seen.version()))
                        .as("a second winner from version %d", seen.version())
                        .isTrue();
                    mine++;
                  }
                }
                return mine;
              });

      long committed = wins.stream().mapToLong(Integer::longValue).sum();
      StoredRecord last = store.read(A).orElseThrow();
      assertThat(committed).isPositive();
      assertThat(last.version()).isEqualTo(1 + committed);
      assertThat(tree(last.state()).get("balance").asLong()).isEqualTo(committed);
      assertThat(store.unpublished(threads * attemptsEach)).hasSize((int) committed);
    }
  }

  /**
   * Sixteen copies of one call race, each retrying on a lost compare-and-swap as an operation with
   * {@code concurrency: retry} would: one commits, the others are told it was answered (or run out
   * of attempts on conflicts); the record moves once.
   */
  @Test
  default void commits_ofOneCallRacing_commitOnceAndMoveTheRecordOnce() throws Exception {
    int threads = 16;
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 0)));

      List<Outcome> outcomes =
          together(
              threads,
              thread -> {
                Outcome outcome = Outcome.CONFLICT;
                for (int attempt = 0; attempt < 64 && outcome == Outcome.CONFLICT; attempt++) {
                  StoredRecord seen = store.read(A).orElseThrow();
                  StoredRecord next = record(A, seen.version() + 1, 2000, 100 + thread);
                  outcome =
                      store.commit(
                          new Write(
                              seen.version(),
                              next,
                              Optional.of(entry(id(1000L * thread + attempt + 1), 2000)),
                              Optional.of(answered("call-1", 9000))));
                }
                return outcome;
              });

      assertThat(outcomes).filteredOn(o -> o == Outcome.COMMITTED).hasSize(1);
      assertThat(outcomes)
          .filteredOn(o -> o != Outcome.COMMITTED)
          .allMatch(o -> o == Outcome.DUPLICATE || o == Outcome.CONFLICT);
      assertThat(store.read(A).orElseThrow().version()).isEqualTo(2);
      assertThat(store.unpublished(100)).hasSize(1);
      assertThat(inboxSize(store)).isEqualTo(1);
      assertSame(answer(store, "call-1", 2000), Optional.of(reply()));
    }
  }

  /** Creations of distinct records by many threads all land, each with its outbox row. */
  @Test
  default void commits_ofDistinctRecordsInParallel_allLand() throws Exception {
    int threads = 8;
    int each = 25;
    try (Storage storage = open()) {
      Store store = wallets(storage);

      together(
          threads,
          thread -> {
            for (int i = 0; i < each; i++) {
              long n = (long) thread * each + i + 1;
              assertThat(
                      store.commit(
                          new Write(
                              0, record(id(n), 1, 1000 + n, 1), Optional.of(entry(id(n), 1000)))))
                  .isEqualTo(Outcome.COMMITTED);
            }
            return null;
          });

      assertThat(store.page(Long.MAX_VALUE, 0)).hasSize(threads * each);
      assertThat(store.unpublished(threads * each + 1)).hasSize(threads * each);
      assertThat(store.page(1, 0))
          .extracting(StoredRecord::id)
          .as("ties in creation time by id")
          .containsExactly(id(1));
    }
  }

  /**
   * A commit cut short by an {@link Error} anywhere inside it writes its record, its outbox entry
   * and its inbox entry together or not at all, and the store goes on: the next commit lands, on
   * this storage and on another opened over the same data. The error is a {@link
   * StackOverflowError} met at one depth of the commit's own calls after another ({@link
   * Overflow}), until commits land with the stack they have. A commit whose statements had left
   * when the error came may still land after it, as any commit whose answer was lost: the answer is
   * read before the record, and the whole is checked once what was in flight has ended.
   */
  @Test
  default void commit_cutShortByAnErrorAtAnyDepth_writesAllOrNothing_andTheStoreGoesOn()
      throws Exception {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      // every class a commit, a conflict and a duplicate use, loaded beforehand: a class whose
      // loading
      // meets the end of the stack is unusable for the rest of the JVM's life, whoever loads it
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.of(entry(id(1), 1000)),
              Optional.of(answered("warm-1", 9000))));
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.of(entry(id(2), 1000)),
              Optional.of(answered("warm-2", 9000))));
      store.commit(
          new Write(
              1,
              record(A, 2, 1000, 5),
              Optional.of(entry(id(3), 1000)),
              Optional.of(answered("warm-1", 9000))));
      int erredInside = 0;
      int inARow = 0;
      Throwable last = null;
      List<Integer> tried = new ArrayList<>();
      // a frame at a time once a try reaches the store; faster through the depths where none does
      int step = 1;
      for (int spare = 0; spare < 40_000 && inARow < 5; spare += step) {
        tried.add(spare);
        String id = id(1_000_000 + spare);
        String call = "deep-" + spare;
        Write write =
            new Write(
                0,
                record(id, 1, 1000, spare),
                Optional.of(entry(id, 1000)),
                Optional.of(answered(call, 9000)));
        Overflow.Try<Outcome> attempt =
            Overflow.call(
                () -> store.commit(write), spare, Duration.ofSeconds(Fixtures.PATIENCE_SECONDS));
        if (attempt.erredInside()) erredInside++;
        if (attempt.error() != null) last = attempt.error();
        inARow = attempt.returned() ? inARow + 1 : 0;
        step = attempt.entered() ? 1 : 16;
        if (attempt.returned())
          assertThat(attempt.result())
              .as("%d frames short of the end", spare)
              .isEqualTo(Outcome.COMMITTED);

        boolean answered = answer(store, call, 1000).isPresent();
        assertThat(!answered || store.read(id).isPresent())
            .as(
                "%d frames short of the end: an answer recorded without its record (%s)",
                spare, attempt)
            .isTrue();
      }
      assertThat(inARow)
          .as(
              "commits land once they have the stack they need; the last failure: %s",
              Overflow.describe(last))
          .isEqualTo(5);
      assertThat(erredInside)
          .as("commits cut short by the error once inside the store")
          .isGreaterThanOrEqualTo(3);

      Awaitility.await("every commit tried, in its store in full or not at all")
          .atMost(Duration.ofSeconds(Fixtures.PATIENCE_SECONDS))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> {
                long written = 0;
                for (int n : tried) {
                  boolean record = store.read(id(1_000_000 + n)).isPresent();
                  assertThat(answer(store, "deep-" + n, 1000).isPresent())
                      .as("%d frames short of the end: the answer with the record", n)
                      .isEqualTo(record);
                  if (record) written++;
                }
                assertThat(store.unpublishedCount())
                    .as("an outbox entry per record written")
                    .isEqualTo(written + 1);
                assertThat(inboxSize(store))
                    .as("an inbox entry per record written")
                    .isEqualTo(written + 1);
              });

      assertThat(
              store.commit(
                  new Write(
                      0,
                      record(B, 1, 1000, 1),
                      Optional.of(entry(id(4), 1000)),
                      Optional.of(answered("after", 9000)))))
          .isEqualTo(Outcome.COMMITTED);
      try (Storage other = open()) {
        Store again = wallets(other);
        assertThat(
                again.commit(
                    new Write(
                        1,
                        record(B, 2, 2000, 2),
                        Optional.of(entry(id(5), 2000)),
                        Optional.of(answered("other", 9000)))))
            .as("another storage over the same data writes: nothing was left locked")
            .isEqualTo(Outcome.COMMITTED);
      }
      assertThat(store.read(B).orElseThrow().version()).isEqualTo(2);
    }
  }

  // -- claims on outbox entries -----------------------------------------------------------------

  @Test
  default void claim_takesUnclaimedEntries_andNobodyElseUntilTheClaimEnds() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      for (int i = 1; i <= 3; i++)
        store.commit(
            new Write(0, record(id(100 + i), 1, 1000, i), Optional.of(entry(id(i), 1000))));

      assertThat(store.claim(2, 1000, 5000))
          .extracting(OutboxEntry::id)
          .containsExactly(id(1), id(2));
      assertThat(store.claim(10, 1000, 5000)).extracting(OutboxEntry::id).containsExactly(id(3));
      assertThat(store.claim(10, 4999, 9000)).as("every claim holds until 5000").isEmpty();
      assertThat(store.claim(10, 5000, 9000))
          .extracting(OutboxEntry::id)
          .containsExactly(id(1), id(2), id(3));
    }
  }

  @Test
  default void claim_leavesAnEntryItsCommitterClaimed_untilThatClaimEnds() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      OutboxEntry claimed = new OutboxEntry(id(1), 1000, json(JSON.createObjectNode()), 11_000);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(claimed)));

      assertThat(store.claim(10, 10_999, 20_000)).isEmpty();
      assertThat(store.unpublished(10))
          .extracting(OutboxEntry::claimedUntil)
          .containsExactly(11_000L);
      assertThat(store.claim(10, 11_000, 20_000))
          .extracting(OutboxEntry::id)
          .containsExactly(id(1));
    }
  }

  @Test
  default void claim_neverTakesPublishedEntries() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));
      store.published(List.of(id(1)), 2000);

      assertThat(store.claim(10, Long.MAX_VALUE - 1, Long.MAX_VALUE)).isEmpty();
    }
  }

  @Test
  default void claims_racing_takeDisjointEntries_andTogetherAll() throws Exception {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      int entries = 60;
      for (int i = 1; i <= entries; i++)
        store.commit(
            new Write(0, record(id(1000 + i), 1, 1000, i), Optional.of(entry(id(i), 1000))));

      List<List<OutboxEntry>> taken = together(6, index -> store.claim(entries, 1000, 9000));

      Set<String> ids = ConcurrentHashMap.newKeySet();
      int total = 0;
      for (List<OutboxEntry> batch : taken) {
        total += batch.size();
        batch.forEach(e -> ids.add(e.id()));
      }
      assertThat(total).as("no entry claimed twice").isEqualTo(ids.size());
      assertThat(ids).hasSize(entries);
    }
  }

  // -- recent entries and redelivery --------------------------------------------------------------

  @Test
  default void recent_answersNewestFirst_publishedOrNot_atMostTheLimit() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(id(101), 1, 1000, 1), Optional.of(entry(id(1), 1000))));
      store.commit(
          new Write(0, record(id(102), 1, 1000, 2), Optional.of(taskEntry(id(2), 1000, "task-1"))));
      store.commit(new Write(0, record(id(103), 1, 1000, 3), Optional.of(entry(id(3), 1000))));
      store.published(List.of(id(1), id(2)), 2000);

      List<RecentEntry> recent = store.recent(10);

      assertSame(
          recent.stream().map(RecentEntry::entry).toList(),
          List.of(entry(id(3), 1000), taskEntry(id(2), 1000, "task-1"), entry(id(1), 1000)));
      assertThat(recent)
          .extracting(RecentEntry::published)
          .containsExactly(OptionalLong.empty(), OptionalLong.of(2000), OptionalLong.of(2000));
      assertThat(store.recent(2)).extracting(r -> r.entry().id()).containsExactly(id(3), id(2));
    }
  }

  @Test
  default void republish_publishedEntry_isClaimedAgainAsCommitted() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(entry(id(2), 1000))));
      store.claim(10, 1000, 11_000);
      store.published(List.of(id(1), id(2)), 2000);

      assertThat(store.republish(List.of(id(1)), 3000)).isEqualTo(1);

      assertThat(store.unpublishedCount()).isEqualTo(1);
      assertThat(store.recent(10))
          .extracting(RecentEntry::published)
          .containsExactly(OptionalLong.of(2000), OptionalLong.empty());
      List<OutboxEntry> again = store.claim(10, 3000, 13_000);
      assertThat(again)
          .extracting(OutboxEntry::claimedUntil)
          .as("its old claim ended: any sweep takes it at once")
          .containsExactly(13_000L);
      assertSame(
          again.stream()
              .map(e -> new OutboxEntry(e.id(), e.created(), e.change(), e.tasks(), 1000))
              .toList(),
          List.of(entry(id(1), 1000)));
      store.published(List.of(id(1)), 4000);
      assertThat(store.recent(10))
          .extracting(RecentEntry::published)
          .containsExactly(OptionalLong.of(2000), OptionalLong.of(4000));
    }
  }

  @Test
  default void republish_unpublishedEntry_keepsItsClaim() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(
              0,
              record(A, 1, 1000, 5),
              Optional.of(new OutboxEntry(id(1), 1000, json(JSON.createObjectNode()), 11_000))));

      assertThat(store.republish(List.of(id(1)), 5000)).as("a known entry is counted").isEqualTo(1);

      assertThat(store.claim(10, 5000, 20_000)).as("its committer still publishes it").isEmpty();
      assertThat(store.unpublished(10))
          .extracting(OutboxEntry::claimedUntil)
          .containsExactly(11_000L);
    }
  }

  @Test
  default void release_heldClaims_areTakenByTheNextClaim() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      OutboxEntry held = new OutboxEntry(id(1), 1000, json(JSON.createObjectNode()), 11_000);
      OutboxEntry published = new OutboxEntry(id(2), 1000, json(JSON.createObjectNode()), 11_000);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(held)));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(published)));
      store.published(List.of(id(2)), 1500);

      store.release(List.of(held, published), 2000);

      assertThat(store.claim(10, 2000, 9000))
          .as("given back: claimed at once, long before 11000")
          .extracting(OutboxEntry::id)
          .containsExactly(id(1));
      assertThat(store.unpublishedCount()).as("a published entry stays published").isEqualTo(1);
    }
  }

  @Test
  default void release_claimTakenOverSince_isLeftToItsHolder() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      OutboxEntry committed = new OutboxEntry(id(1), 1000, json(JSON.createObjectNode()), 11_000);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(committed)));
      assertThat(store.claim(10, 12_000, 22_000))
          .as("the committer's claim ended; a sweep takes it")
          .hasSize(1);

      store.release(
          List.of(committed), 13_000); // the committer, late, gives back a claim it no longer holds

      assertThat(store.claim(10, 13_000, 23_000)).as("the sweep's claim holds").isEmpty();
      assertThat(store.unpublished(10))
          .extracting(OutboxEntry::claimedUntil)
          .containsExactly(22_000L);
    }
  }

  @Test
  default void republish_unknownIds_areIgnoredAndChangeNothing() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry(id(1), 1000))));
      store.published(List.of(id(1)), 2000);

      assertThat(store.republish(List.of(id(9), "unknown"), 3000)).isZero();
      assertThat(store.republish(List.of(), 3000)).isZero();

      assertThat(store.unpublishedCount()).isZero();
      assertThat(store.recent(10))
          .extracting(RecentEntry::published)
          .containsExactly(OptionalLong.of(2000));
    }
  }

  @Test
  default void republish_survivesReopening() {
    try (Storage storage = open()) {
      Store store = wallets(storage);
      store.commit(
          new Write(0, record(A, 1, 1000, 5), Optional.of(taskEntry(id(1), 1000, "task-1"))));
      store.published(List.of(id(1)), 2000);
      assertThat(store.republish(List.of(id(1), id(2)), 3000)).isEqualTo(1);
    }
    try (Storage storage = open()) {
      assertSame(
          wallets(storage).unpublished(10),
          List.of(
              new OutboxEntry(id(1), 1000, Optional.empty(), Optional.of(tasks("task-1")), 3000)));
    }
  }
}
