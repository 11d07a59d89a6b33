package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Outcome;
import io.toa4j.spi.OwnerOnly;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage's folder and files, the ones SQLite makes itself included, are their owner's alone.
 */
class FileModesTest {
  @TempDir Path dir;

  @Test
  void newStore_afterACommit_folderIs0700_andDatabaseWalAndShmAre0600() throws Exception {
    Path state = dir.resolve(".toa");
    try (Storage storage = new SqliteStorageProvider().open(new StorageSettings(state, Map.of()))) {
      commitOne(storage.store("orders"));

      Path db = state.resolve("storage/orders.db");
      assertThat(Files.getPosixFilePermissions(state)).isEqualTo(OwnerOnly.FOLDER);
      assertThat(Files.getPosixFilePermissions(state.resolve("storage")))
          .isEqualTo(OwnerOnly.FOLDER);
      for (String file : new String[] {"orders.db", "orders.db-wal", "orders.db-shm"}) {
        Path path = db.resolveSibling(file);
        assertThat(path).as(file + ", made by SQLite while the store is open").exists();
        assertThat(Files.getPosixFilePermissions(path)).as(file).isEqualTo(OwnerOnly.FILE);
      }
    }
  }

  @Test
  void existingWiderDatabase_isOpened_andLeftAsItIs() throws Exception {
    Path folder = Files.createDirectories(dir.resolve(".toa/storage"));
    Path db =
        Files.createFile(
            folder.resolve("orders.db"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));

    try (Storage storage =
        new SqliteStorageProvider().open(new StorageSettings(dir.resolve(".toa"), Map.of()))) {
      commitOne(storage.store("orders"));
      assertThat(storage.store("orders").read("r1")).isPresent();
    }
    assertThat(Files.getPosixFilePermissions(db))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
  }

  private static void commitOne(Store store) {
    var state = new io.toa4j.spi.Json("{\"n\":1}");
    assertThat(store.commit(new Write(0, new StoredRecord("r1", 1, 1, 1, state))))
        .isEqualTo(Outcome.COMMITTED);
  }
}
