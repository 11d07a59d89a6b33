package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.testkit.storage.StorageContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store against real files: the storage contract, and what only SQLite does. */
class SqliteStoreTest implements StorageContract {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

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
      storage.store("billing.wallets").commit(new Write(0, new StoredRecord(A, 1, 1, 1, JSON.createObjectNode())));

      assertThat(directory.resolve("storage/billing.wallets.db")).isRegularFile();
      assertThat(storage.describe()).contains("sqlite").contains(directory.toString());
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
      assertThat(s.executeQuery("PRAGMA user_version").getInt(1)).isEqualTo(9);
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
}
