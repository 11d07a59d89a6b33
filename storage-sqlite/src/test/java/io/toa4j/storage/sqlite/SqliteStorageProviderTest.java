package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteStorageProviderTest {
  @TempDir Path state;

  @Test
  void open_withoutOptions_keepsFilesUnderTheStateDirectory() {
    try (Storage storage = new SqliteStorageProvider().open(new StorageSettings(state, Map.of()))) {
      storage.store("billing.wallets");
    }

    assertThat(state.resolve("storage"))
        .isDirectoryContaining(p -> p.getFileName().toString().startsWith("billing.wallets"));
  }

  @Test
  void open_withAPath_keepsFilesThere() throws Exception {
    Path elsewhere = Files.createDirectories(state.resolve("elsewhere"));

    try (Storage storage =
        new SqliteStorageProvider()
            .open(new StorageSettings(state, Map.of("path", elsewhere.toString())))) {
      storage.store("billing.wallets");
    }

    assertThat(elsewhere)
        .isDirectoryContaining(p -> p.getFileName().toString().startsWith("billing.wallets"));
    assertThat(state.resolve("storage")).doesNotExist();
  }

  @Test
  void open_unknownOption_isRefusedByName() {
    assertThatThrownBy(
            () ->
                new SqliteStorageProvider()
                    .open(new StorageSettings(state, Map.of("journal", "wal"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no option 'journal'")
        .hasMessageContaining("[path]");
  }
}
