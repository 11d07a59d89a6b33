package io.toa4j.runtime;

import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The stores the runtime keeps for itself on a context's storage, reached without booting any
 * component, so the command line can manage them beside a running context or with none running.
 *
 * <p>Each is the store of a label {@code system.<name>}: the {@code system} namespace is reserved
 * for the runtime (no manifest may declare it), so such a store never meets a component's, and it
 * lives wherever the context keeps its components' data (a SQLite file under {@code .toa/storage/},
 * a PostgreSQL schema {@code system_<name>}). Thread-safe; closing it closes the storage.
 */
public final class SystemStores implements AutoCloseable {
  private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]{0,31}");

  private final Storage storage;

  private SystemStores(Storage storage) {
    this.storage = storage;
  }

  /**
   * Opens the storage of the context in the folder, as the context and the environment ({@code
   * TOA_STORAGE}, {@code TOA_STORAGE_URL}) name it.
   *
   * @throws io.toa4j.manifest.ManifestException when the context does not fit
   * @throws StartupException when its storage engine is not on the class path
   */
  public static SystemStores open(Path contextDirectory) {
    var context = Manifests.loadContext(contextDirectory);
    return new SystemStores(Engines.storage(context, context.directory().resolve(".toa"), System.getenv()));
  }

  /** The runtime's store of that name, created on first use. */
  public Store store(String name) {
    return storage.store(label(name));
  }

  /** {@code system.<name>}; the name is a lowercase letter and up to 31 letters or digits. */
  static String label(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + name + "' is not a system store name: a lowercase letter and up to 31 letters or digits");
    }
    return "system." + name;
  }

  /** What the storage is, for messages. */
  public String describe() {
    return storage.describe();
  }

  @Override
  public void close() {
    storage.close();
  }
}
