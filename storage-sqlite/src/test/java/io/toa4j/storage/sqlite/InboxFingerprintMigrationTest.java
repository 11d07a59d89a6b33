package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written before inbox entries kept a fingerprint opens, and its entries answer as before.
 */
class InboxFingerprintMigrationTest {
  @TempDir Path directory;

  @Test
  void fileAtStep8_gainsTheColumn_andItsEntriesHaveNoFingerprint() throws Exception {
    Path file = directory.resolve("storage/billing.wallets.db");
    Files.createDirectories(file.getParent());
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      // the tables as steps 1 to 8 left them (indexes aside), with one answered call
      s.execute(
          "CREATE TABLE records (id TEXT PRIMARY KEY, version INTEGER NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL, state TEXT NOT NULL)");
      s.execute(
          "CREATE TABLE outbox (id TEXT PRIMARY KEY, created INTEGER NOT NULL, change TEXT NOT NULL, published INTEGER, claimed_until INTEGER NOT NULL DEFAULT 0)");
      s.execute(
          "CREATE TABLE inbox (identity TEXT PRIMARY KEY, reply TEXT NOT NULL, expires INTEGER NOT NULL)");
      s.execute("INSERT INTO inbox VALUES ('call-1', '{\"balance\":5}', 9000)");
      s.execute("PRAGMA user_version = 8");
    }

    try (Storage storage =
        new SqliteStorageProvider().open(new StorageSettings(directory, Map.of()))) {
      Store store = storage.store("billing.wallets");

      assertThat(store.recorded("call-1", 1000))
          .hasValueSatisfying(
              (InboxEntry e) -> {
                assertThat(e.fingerprint()).isEmpty();
                assertThat(e.reply().orElseThrow().text()).isEqualTo("{\"balance\":5}");
                assertThat(e.expires()).isEqualTo(9000);
                assertThat(e.forgotten())
                    .as("an entry from before the record window is forgotten when it expires")
                    .isEqualTo(9000);
                assertThat(e.answered()).isZero();
                assertThat(e.record()).isEmpty();
              });
      assertThat(store.recorded("call-1", 9000)).isEmpty();
      assertThat(store.purgeInbox(9000, 10)).isEqualTo(1);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      assertThat(s.executeQuery("PRAGMA user_version").getInt(1))
          .as("every step since applied")
          .isEqualTo(Migrations.STEPS.size());
    }
  }
}
