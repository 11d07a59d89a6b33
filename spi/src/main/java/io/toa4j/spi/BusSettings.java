package io.toa4j.spi;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how a bus keeps a context's messages.
 *
 * @param stateDirectory the context's private folder ({@code .toa/}), for buses that keep files
 * @param options bus-specific settings, such as a URL
 * @param clock decides when a delayed message is due, so tests can move time instead of waiting
 */
public record BusSettings(Path stateDirectory, Map<String, String> options, Clock clock) {
  public BusSettings {
    Objects.requireNonNull(stateDirectory, "stateDirectory");
    Objects.requireNonNull(clock, "clock");
    options = Map.copyOf(options);
  }
}
