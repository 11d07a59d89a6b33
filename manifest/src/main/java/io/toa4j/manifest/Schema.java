package io.toa4j.manifest;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A JSON Schema compiled once at load. Thread-safe.
 */
public interface Schema {
  /** The schema as declared (after the runtime's additions, for entity schemas). */
  JsonNode source();

  /** The ways the value does not fit, in document order; empty when it fits. */
  List<Violation> validate(JsonNode value);
}
