package io.toa4j.storage.sqlite;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;

/** Opens the embedded SQLite storage: {@code storage: sqlite} in a context. */
public final class SqliteStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public Storage open(StorageSettings settings) {
    return new SqliteStorage(settings.stateDirectory().resolve("storage"));
  }
}
