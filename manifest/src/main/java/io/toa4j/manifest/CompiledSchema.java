package io.toa4j.manifest;

import com.networknt.schema.Error;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A {@link Schema} compiled by networknt. Immutable and thread-safe: the compiled schema is fully
 * initialized before it is published and only read afterwards.
 *
 * <p>Paths: a property that is not allowed is reported at its own pointer ({@code /extra}); a
 * missing required property at the object that lacks it ({@code ""}), the message naming it.
 */
final class CompiledSchema implements Schema {
  private final JsonNode source;
  private final com.networknt.schema.Schema compiled;

  CompiledSchema(JsonNode source, com.networknt.schema.Schema compiled) {
    this.source = source;
    this.compiled = compiled;
  }

  @Override
  public JsonNode source() {
    return source.deepCopy();
  }

  @Override
  public List<Violation> validate(JsonNode value) {
    Objects.requireNonNull(value, "value");
    List<Error> errors = compiled.validate(value);
    if (errors.isEmpty()) {
      return List.of();
    }
    Map<String, Integer> order = JsonPointers.documentOrder(value);
    return errors.stream()
        .map(CompiledSchema::violation)
        .sorted(Comparator.comparingInt(v -> order.getOrDefault(v.path(), Integer.MAX_VALUE)))
        .toList();
  }

  @Override
  public JsonNode withDefaults(JsonNode value) {
    Objects.requireNonNull(value, "value");
    return SchemaDefaults.apply(source, value);
  }

  @Override
  public String toString() {
    return source.toString();
  }

  private static Violation violation(Error error) {
    String path = error.getInstanceLocation().toString();
    boolean extra =
        "additionalProperties".equals(error.getKeyword())
            || "unevaluatedProperties".equals(error.getKeyword());
    if (extra && error.getProperty() != null) {
      path = JsonPointers.append(path, error.getProperty());
    }
    return new Violation(path, error.getMessage());
  }
}
