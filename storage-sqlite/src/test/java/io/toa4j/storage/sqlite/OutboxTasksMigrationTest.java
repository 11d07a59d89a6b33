package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;

/**
 * A file written before outbox entries kept tasks opens, and its entries read as before, without
 * tasks or a trace context.
 */
class OutboxTasksMigrationTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";
  static final String B = "1123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  @Test
  void fileAtStep9_gainsTheTasksColumn_andItsEntriesReadWithoutTasks() throws Exception {
    Path file = directory.resolve("storage/billing.wallets.db");
    Files.createDirectories(file.getParent());
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      // the tables as steps 1 to 9 left them (indexes aside), with one unpublished entry
      s.execute(
          "CREATE TABLE records (id TEXT PRIMARY KEY, version INTEGER NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL, state TEXT NOT NULL)");
      s.execute(
          "CREATE TABLE outbox (id TEXT PRIMARY KEY, created INTEGER NOT NULL, change TEXT NOT NULL, published INTEGER, claimed_until INTEGER NOT NULL DEFAULT 0)");
      s.execute(
          "CREATE TABLE inbox (identity TEXT PRIMARY KEY, reply TEXT NOT NULL, expires INTEGER NOT NULL, fingerprint TEXT)");
      s.execute("INSERT INTO outbox (id, created, change) VALUES ('" + A + "', 1000, '{\"n\":1}')");
      s.execute("PRAGMA user_version = 9");
    }

    try (Storage storage =
        new SqliteStorageProvider().open(new StorageSettings(directory, Map.of()))) {
      Store store = storage.store("billing.wallets");

      assertThat(store.unpublished(10))
          .extracting(e -> e.change().orElseThrow().text().replace(" ", ""))
          .containsExactly("{\"n\":1}");
      assertThat(store.unpublished(10).get(0).trace())
          .as("an entry written before trace contexts were kept has none")
          .isEmpty();
      OutboxEntry tasks =
          new OutboxEntry(
              B,
              2000,
              Optional.empty(),
              Optional.of(
                  new Json(
                      "[{\"identity\":\"task-1\",\"endpoint\":\"test.sinks.absorb\",\"request\":{\"query\":null}}]")),
              2000);
      store.commit(
          new Write(0, new StoredRecord(A, 1, 2000, 2000, Json.EMPTY_OBJECT), Optional.of(tasks)));
      assertThat(store.unpublished(10))
          .extracting(OutboxEntry::tasks)
          .containsExactly(Optional.empty(), tasks.tasks());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      assertThat(s.executeQuery("PRAGMA user_version").getInt(1))
          .isEqualTo(Migrations.STEPS.size());
    }
  }
}
