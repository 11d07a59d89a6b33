package io.toa4j.test;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The storage of a context under test: the embedded SQLite storage, opened by the runtime as any
 * engine is and held here too, so the kit reads the records the context wrote from the very
 * storage it wrote them to. One per context under test.
 */
final class KitStorage implements StorageProvider {
  /** The engine's name as the kit's builder states it. */
  static final String NAME = "toa-test";

  private final StorageProvider sqlite = new SqliteStorageProvider();
  private final AtomicReference<Storage> opened = new AtomicReference<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Storage open(StorageSettings settings) {
    Storage storage = sqlite.open(settings);
    opened.set(storage);
    return storage;
  }

  /** The store of a component, once the context has opened its storage. */
  Optional<Store> store(String component) {
    return Optional.ofNullable(opened.get()).map(s -> s.store(component));
  }
}
