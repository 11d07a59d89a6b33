package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store against real files. */
class SqliteStoreTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";
  static final String B = "fedcba9876543210fedcba9876543210";

  @TempDir Path directory;

  private Storage open() {
    for (StorageProvider p : ServiceLoader.load(StorageProvider.class)) {
      if (p.name().equals("sqlite")) return p.open(new StorageSettings(directory, Map.of()));
    }
    throw new AssertionError("the sqlite provider is not registered with ServiceLoader");
  }

  static StoredRecord record(String id, long version, long at, int balance) {
    ObjectNode state = JSON.createObjectNode().put("balance", balance);
    return new StoredRecord(id, version, 1000, at, state);
  }

  @Test
  void commit_creation_isReadBackWithItsState() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 5)))).isEqualTo(Outcome.COMMITTED);

      assertThat(store.read(A)).contains(record(A, 1, 1000, 5));
      assertThat(store.read(B)).isEmpty();
      assertThat(directory.resolve("storage/billing.wallets.db")).isRegularFile();
    }
  }

  @Test
  void commit_secondCreationOfTheSameId_conflictsAndKeepsTheFirst() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5)));

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 9)))).isEqualTo(Outcome.CONFLICT);
      assertThat(store.read(A).orElseThrow().state().get("balance").asInt()).isEqualTo(5);
    }
  }

  @Test
  void commit_staleVersion_conflictsAndWritesNothing() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5)));
      store.commit(new Write(1, record(A, 2, 2000, 6)));

      assertThat(store.commit(new Write(1, record(A, 2, 3000, 7)))).isEqualTo(Outcome.CONFLICT);
      assertThat(store.read(A)).contains(record(A, 2, 2000, 6));
      assertThat(store.commit(new Write(2, record(A, 3, 3000, 7)))).isEqualTo(Outcome.COMMITTED);
    }
  }

  @Test
  void page_answersInCreationOrderWithLimitAndOmit() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, new StoredRecord(B, 1, 1, 1, JSON.createObjectNode())));
      store.commit(new Write(0, new StoredRecord(A, 1, 2, 2, JSON.createObjectNode())));

      assertThat(store.page(10, 0)).extracting(StoredRecord::id).containsExactly(B, A);
      assertThat(store.page(1, 1)).extracting(StoredRecord::id).containsExactly(A);
    }
  }

  @Test
  void commits_survive_closingAndReopening() {
    try (Storage storage = open()) {
      storage.store("billing.wallets").commit(new Write(0, record(A, 1, 1000, 5)));
    }
    try (Storage storage = open()) {
      assertThat(storage.store("billing.wallets").read(A)).contains(record(A, 1, 1000, 5));
    }
  }

  @Test
  void file_isInWalModeWithItsSchemaVersion() throws Exception {
    try (Storage storage = open()) {
      storage.store("billing.wallets");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("storage/billing.wallets.db"));
        Statement s = c.createStatement()) {
      assertThat(s.executeQuery("PRAGMA journal_mode").getString(1)).isEqualTo("wal");
      assertThat(s.executeQuery("PRAGMA user_version").getInt(1)).isEqualTo(7);
    }
  }

  @Test
  void open_fileFromANewerRelease_isRefused() throws Exception {
    Files.createDirectories(directory.resolve("storage"));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("storage/billing.wallets.db"));
        Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = 99");
    }
    try (Storage storage = open()) {
      assertThatThrownBy(() -> storage.store("billing.wallets")).hasMessageContaining("newer than this toa4j knows");
    }
  }

  @Test
  void storage_isTransactional() {
    try (Storage storage = open()) {
      assertThat(storage.transactional()).isTrue();
      assertThat(storage.describe()).contains("sqlite");
    }
  }

  @Test
  void write_toAVersionOtherThanTheNext_isRefusedBeforeReachingTheStore() {
    assertThatThrownBy(() -> new Write(1, record(A, 3, 1, 1))).hasMessageContaining("from version 1 to 2");
  }

  static OutboxEntry entry(String id, long at) {
    return new OutboxEntry(id, at, JSON.createObjectNode().put("n", id));
  }

  @Test
  void commit_withOutboxEntry_storesBothAndTheEntryWaitsUnpublished() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");

      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry("e1", 1000))));

      assertThat(store.unpublished(10)).containsExactly(entry("e1", 1000));
    }
  }

  @Test
  void commit_conflicting_storesNoOutboxEntry() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry("e1", 1000))));

      assertThat(store.commit(new Write(0, record(A, 1, 1000, 6), Optional.of(entry("e2", 1000))))).isEqualTo(Outcome.CONFLICT);
      assertThat(store.commit(new Write(5, record(A, 6, 1000, 6), Optional.of(entry("e3", 1000))))).isEqualTo(Outcome.CONFLICT);

      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly("e1");
    }
  }

  @Test
  void published_entriesLeaveUnpublished_andArePurgedAfterRetentionOnly() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry("e1", 1000))));
      store.commit(new Write(0, record(B, 1, 1000, 5), Optional.of(entry("e2", 1000))));

      store.published(List.of("e1", "unknown"), 2000);

      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly("e2");
      assertThat(store.purgePublished(2000, 100)).isZero();
      assertThat(store.purgePublished(2001, 100)).isEqualTo(1);
      assertThat(store.unpublished(10)).extracting(OutboxEntry::id).containsExactly("e2");
      assertThat(store.purgePublished(Long.MAX_VALUE, 100)).as("unpublished entries never expire").isZero();
    }
  }

  @Test
  void unpublished_survivesReopening() {
    try (Storage storage = open()) {
      storage.store("billing.wallets").commit(new Write(0, record(A, 1, 1000, 5), Optional.of(entry("e1", 1000))));
    }
    try (Storage storage = open()) {
      assertThat(storage.store("billing.wallets").unpublished(10)).extracting(OutboxEntry::id).containsExactly("e1");
    }
  }

  static InboxEntry answered(String identity, long expires) {
    return new InboxEntry(identity, JSON.createObjectNode().put("balance", 5), expires);
  }

  @Test
  void commit_withInboxEntry_answersTheCallUntilItExpires() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");

      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      assertThat(store.answer("call-1", 4999)).contains(JSON.createObjectNode().put("balance", 5));
      assertThat(store.answer("call-1", 5000)).isEmpty();
      assertThat(store.answer("call-2", 1000)).isEmpty();
    }
  }

  @Test
  void commit_ofACallAlreadyAnswered_isADuplicateAndWritesNothing() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Outcome twin = store.commit(new Write(1, record(A, 2, 2000, 10), Optional.of(entry("e1", 2000)), Optional.of(answered("call-1", 6000))));

      assertThat(twin).isEqualTo(Outcome.DUPLICATE);
      assertThat(store.read(A)).contains(record(A, 1, 1000, 5));
      assertThat(store.unpublished(10)).isEmpty();
      assertThat(store.answer("call-1", 4999)).isPresent();
      assertThat(store.answer("call-1", 5000)).as("the first answer's expiry is kept").isEmpty();
    }
  }

  @Test
  void commit_ofAForgottenCall_runsAsANewOne() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      store.commit(new Write(0, record(A, 1, 1000, 5), Optional.empty(), Optional.of(answered("call-1", 5000))));

      Outcome later = store.commit(new Write(1, record(A, 2, 5000, 10), Optional.empty(), Optional.of(answered("call-1", 9000))));

      assertThat(later).isEqualTo(Outcome.COMMITTED);
      assertThat(store.answer("call-1", 8999)).isPresent();
    }
  }

  @Test
  void purgeInbox_removesOnlyExpiredEntries_inBoundedBatches() {
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      for (int i = 1; i <= 5; i++) {
        String id = String.format("%032x", i);
        store.commit(new Write(0, record(id, 1, 1000, i), Optional.empty(), Optional.of(answered("call-" + i, i <= 3 ? 2000 : 9000))));
      }

      assertThat(store.purgeInbox(2000, 2)).isEqualTo(2);
      assertThat(store.purgeInbox(2000, 2)).isEqualTo(1);
      assertThat(store.purgeInbox(2000, 2)).isZero();
      assertThat(store.inboxSize()).isEqualTo(2);
    }
  }
}
