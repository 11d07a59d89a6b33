package io.toa4j.spi;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how a storage keeps a context's data.
 *
 * @param stateDirectory the context's private folder ({@code .toa/}), for engines that keep files
 * @param options engine-specific settings, such as a URL
 */
public record StorageSettings(Path stateDirectory, Map<String, String> options) {
  public StorageSettings {
    Objects.requireNonNull(stateDirectory, "stateDirectory");
    options = Map.copyOf(options);
  }
}
