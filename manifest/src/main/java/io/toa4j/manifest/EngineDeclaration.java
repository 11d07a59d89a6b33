package io.toa4j.manifest;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An engine as a context names it: the engine's name, and the options handed to it as they are
 * written. The manifest does not know which engines exist or what they take: the runtime finds the
 * engine by name and the engine checks its own options.
 *
 * @param name the engine's name, such as {@code sqlite}, {@code postgres}, {@code rabbitmq}
 * @param options the engine's options by name, values as text ({@code url} among them when the
 *     context gives one); sorted by name
 * @param location where the engine is declared, for messages
 */
public record EngineDeclaration(String name, Map<String, String> options, Location location) {
  public EngineDeclaration {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(location, "location");
    options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
  }

  /** The same engine with these options laid over its own. */
  public EngineDeclaration with(Map<String, String> more) {
    Map<String, String> merged = new TreeMap<>(options);
    merged.putAll(more);
    return new EngineDeclaration(name, merged, location);
  }
}
