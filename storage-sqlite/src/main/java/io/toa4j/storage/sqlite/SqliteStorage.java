package io.toa4j.storage.sqlite;

import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** A folder of SQLite files, one per component. Thread-safe. */
final class SqliteStorage implements Storage {
  private final Path directory;
  private final ConcurrentMap<String, SqliteStore> stores = new ConcurrentHashMap<>();
  private volatile boolean closed;

  SqliteStorage(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the storage folder " + directory, e);
    }
    this.directory = directory;
  }

  @Override
  public Store store(String component) {
    if (closed) throw new IllegalStateException("The SQLite storage at " + directory + " is closed");
    return stores.computeIfAbsent(component, c -> new SqliteStore(directory.resolve(c + ".db")));
  }

  @Override
  public boolean transactional() {
    return true;
  }

  @Override
  public String describe() {
    return "sqlite at " + directory;
  }

  @Override
  public void close() {
    closed = true;
    stores.values().forEach(SqliteStore::close);
    stores.clear();
  }
}
