package io.toa4j.storage.sqlite;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * Opens the embedded SQLite storage: {@code storage: sqlite} in a context, one file per component.
 *
 * <p>One option, optional: {@code path}, the folder of the files (default {@code
 * <stateDirectory>/storage}); a relative one is taken from the state directory. Any other option
 * fails {@link #open} naming it. Stateless and thread-safe.
 */
public final class SqliteStorageProvider implements StorageProvider {
  static final String PATH = "path";

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public Storage open(StorageSettings settings) {
    for (String key : settings.options().keySet()) {
      if (!key.equals(PATH)) {
        throw new IllegalArgumentException(
            "The sqlite storage has no option '"
                + key
                + "'; it takes "
                + new TreeSet<>(java.util.Set.of(PATH)));
      }
    }
    return new SqliteStorage(folder(settings));
  }

  private static Path folder(StorageSettings settings) {
    String path = settings.options().get(PATH);
    if (path == null) return settings.stateDirectory().resolve("storage");
    try {
      if (path.isBlank()) throw new InvalidPathException(path, "empty");
      return settings.stateDirectory().resolve(path);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "The sqlite storage option path is '" + path + "', which is not a folder's path", e);
    }
  }
}
