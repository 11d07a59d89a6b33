package io.toa4j.manifest;

import java.util.List;
import tools.jackson.databind.JsonNode;

/** A JSON Schema compiled once at load. Thread-safe. */
public interface Schema {
  /** The schema as declared (after the runtime's additions, for entity schemas). */
  JsonNode source();

  /** The ways the value does not fit, in document order; empty when it fits. */
  List<Violation> validate(JsonNode value);

  /**
   * The value with the {@code default} of each missing property given, through {@code properties}
   * at any depth; the value itself, unchanged, when nothing is missing.
   */
  JsonNode withDefaults(JsonNode value);
}
