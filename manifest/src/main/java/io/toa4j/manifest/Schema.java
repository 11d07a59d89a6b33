package io.toa4j.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A JSON Schema compiled once at load. Thread-safe.
 */
public interface Schema {
  /** The schema as declared (after the runtime's additions, for entity schemas). */
  JsonNode source();

  /** The ways the value does not fit, in document order; empty when it fits. */
  List<Violation> validate(JsonNode value);
}
