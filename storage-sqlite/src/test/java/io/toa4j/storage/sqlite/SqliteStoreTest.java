package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.tck.storage.StorageContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;

/** The SQLite store against real files: the storage contract, and what only SQLite does. */
class SqliteStoreTest implements StorageContract {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  @Override
  public long inboxSize(Store store) {
    return ((SqliteStore) store).inboxSize();
  }

  @Override
  public Storage open() {
    for (StorageProvider p : ServiceLoader.load(StorageProvider.class)) {
      if (p.name().equals("sqlite")) return p.open(new StorageSettings(directory, Map.of()));
    }
    throw new AssertionError("the sqlite provider is not registered with ServiceLoader");
  }

  @Test
  void store_keepsEachComponentInAFileNamedAfterIt() {
    try (Storage storage = open()) {
      storage
          .store("billing.wallets")
          .commit(new Write(0, new StoredRecord(A, 1, 1, 1, Json.EMPTY_OBJECT)));

      assertThat(directory.resolve("storage/billing.wallets.db")).isRegularFile();
      assertThat(storage.describe()).contains("sqlite").contains(directory.toString());
    }
  }

  @Test
  void file_isInWalModeWithItsSchemaVersion() throws Exception {
    try (Storage storage = open()) {
      storage.store("billing.wallets");
    }
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve("storage/billing.wallets.db"));
        Statement s = c.createStatement()) {
      assertThat(s.executeQuery("PRAGMA journal_mode").getString(1)).isEqualTo("wal");
      assertThat(s.executeQuery("PRAGMA user_version").getInt(1))
          .isEqualTo(Migrations.STEPS.size());
    }
  }

  @Test
  void open_fileFromANewerRelease_isRefused() throws Exception {
    Files.createDirectories(directory.resolve("storage"));
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve("storage/billing.wallets.db"));
        Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = 99");
    }
    try (Storage storage = open()) {
      assertThatThrownBy(() -> storage.store("billing.wallets"))
          .hasMessageContaining("newer than this toa4j knows");
    }
  }

  /**
   * Writers racing in pairs for one inbox identity: one of each pair commits, the other is a
   * duplicate whose record is rolled back, whether or not the two shared a transaction with each
   * other and with the rest.
   */
  @Test
  void concurrentWrites_eachKeepOnlyTheirOwnOutcome() throws Exception {
    int pairs = 200;
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      ExecutorService threads = Executors.newFixedThreadPool(16);
      List<Future<Outcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < 2 * pairs; i++) {
        String id = String.format("%032x", i);
        InboxEntry answer =
            new InboxEntry("call-" + (i / 2), new Json("{\"id\":\"" + id + "\"}"), Long.MAX_VALUE);
        Write write =
            new Write(
                0,
                new StoredRecord(id, 1, 1, 1, Json.EMPTY_OBJECT),
                Optional.empty(),
                Optional.of(answer));
        outcomes.add(threads.submit(() -> store.commit(write)));
      }
      threads.shutdown();

      for (int pair = 0; pair < pairs; pair++) {
        Outcome first = outcomes.get(2 * pair).get(1, TimeUnit.MINUTES);
        Outcome second = outcomes.get(2 * pair + 1).get(1, TimeUnit.MINUTES);
        assertThat(List.of(first, second))
            .as("pair %d", pair)
            .containsExactlyInAnyOrder(Outcome.COMMITTED, Outcome.DUPLICATE);
        String winner =
            String.format("%032x", first == Outcome.COMMITTED ? 2 * pair : 2 * pair + 1);
        String loser = String.format("%032x", first == Outcome.COMMITTED ? 2 * pair + 1 : 2 * pair);
        assertThat(store.read(winner)).isPresent();
        assertThat(store.read(loser)).as("the duplicate's record").isEmpty();
        assertThat(store.recorded("call-" + pair, 0))
            .hasValueSatisfying(
                e ->
                    assertThat(e.reply().orElseThrow().text())
                        .isEqualTo("{\"id\":\"" + winner + "\"}"));
      }
      assertThat(inboxSize(store)).isEqualTo(pairs);
    }
  }

  /**
   * Commits land in the WAL; a thread of the storage copies them into the database file, so the
   * file grows with what is committed well before a commit would checkpoint by itself.
   */
  @Test
  void committedPages_reachTheDatabaseFile_inTheBackground() {
    Path file = directory.resolve("storage/billing.wallets.db");
    try (Storage storage = open()) {
      Store store = storage.store("billing.wallets");
      long before = file.toFile().length();
      String filler = "x".repeat(4000);
      for (int i = 0; i < 300; i++) {
        store.commit(
            new Write(
                0,
                new StoredRecord(
                    String.format("%032x", i),
                    1,
                    1,
                    1,
                    new Json("{\"note\":\"" + filler + "\"}"))));
      }

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> file.toFile().length() >= before + 300 * 4000L);
    }
  }

  @Test
  void commit_afterTheStorageIsClosed_isRefusedSayingSo() {
    Store store;
    try (Storage storage = open()) {
      store = storage.store("billing.wallets");
    }

    assertThatThrownBy(
            () -> store.commit(new Write(0, new StoredRecord(A, 1, 1, 1, Json.EMPTY_OBJECT))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("billing.wallets.db")
        .hasMessageContaining("closed");
  }

  @Test
  void open_ofAFileFromANewerVersion_failsAndLeavesNoConnectionToIt() throws Exception {
    Path file = directory.resolve("newer.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = 999");
    }

    assertThatThrownBy(() -> new SqliteStore(file))
        .hasMessageContaining("newer than this toa4j knows");
    assertThat(openedFiles(file)).as("connections left open to the file").isZero();
  }

  @Test
  void close_leavesNoConnectionToTheFile_andALaterReadSaysTheStoreIsClosed() throws Exception {
    Path file = directory.resolve("closed.db");
    SqliteStore store = new SqliteStore(file);
    store.commit(new Write(0, new StoredRecord(A, 1, 1, 1, Json.EMPTY_OBJECT)));
    assertThat(store.read(A)).isPresent();

    store.close();

    assertThat(openedFiles(file)).as("connections left open to the file").isZero();
    assertThatThrownBy(() -> store.read(A))
        .hasMessage("SQLite could not read in " + file + ": the store is closed");
  }

  /** How many descriptors of this process are open on the file (Linux: /proc/self/fd). */
  private static long openedFiles(Path file) throws Exception {
    Path real = file.toRealPath();
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).equals(real);
                } catch (Exception gone) { // closed since it was listed
                  return false;
                }
              })
          .count();
    }
  }
}
