package io.toa4j.manifest;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Schema {@code default} values: checked against their own schema at load, and applied to a value
 * before it is validated (see docs/manifest.md, "Defaults").
 *
 * <p>A default is applied to a missing property of an object, read through {@code properties} at
 * any depth: a property that is present and is an object has its own properties' defaults applied.
 * Defaults under {@code items}, {@code anyOf}, {@code oneOf}, {@code allOf} or behind a {@code
 * $ref} are checked but not applied.
 */
final class SchemaDefaults {
  private SchemaDefaults() {}

  /**
   * Refuses, at its path, the first {@code default} anywhere in the schema that does not fit the
   * schema it is declared in. The schema must have passed {@link SchemaKeywords#check(Declared)}.
   *
   * @param root the whole fragment, whose {@code $defs} a nested schema may refer to
   */
  static void check(Declared schema, JsonNode root) {
    if (!schema.node().isObject()) {
      return;
    }
    schema.get("default").ifPresent(fallback -> checkFits(schema, fallback, root));
    SchemaKeywords.subschemas(schema).forEach(inside -> check(inside, root));
  }

  private static void checkFits(Declared schema, Declared fallback, JsonNode root) {
    ObjectNode own = (ObjectNode) SchemaKeywords.nullable(schema.node());
    own.remove("default");
    if (!own.has("$defs") && root.has("$defs")) {
      own.set("$defs", SchemaKeywords.nullable(root).get("$defs"));
    }
    Schema compiled;
    try {
      compiled = JsonSchemas.compile(own, schema.location());
    } catch (ManifestException e) {
      return; // a $ref outside $defs: the whole fragment's compilation reports it
    }
    List<Violation> violations = compiled.validate(fallback.node());
    if (!violations.isEmpty()) {
      throw fallback.refuse(
          "the default "
              + Declared.describe(fallback.node())
              + " does not fit its own schema"
              + fallback.line()
              + ": "
              + violations.stream()
                  .map(Violation::toString)
                  .reduce((a, b) -> a + "; " + b)
                  .orElse("")
              + "; write a default the schema accepts, or remove it");
    }
  }

  /** The value with the schema's defaults given to its missing properties; the value unchanged. */
  static JsonNode apply(JsonNode schema, JsonNode value) {
    if (!needsDefaults(schema, value)) {
      return value;
    }
    ObjectNode copy = (ObjectNode) value.deepCopy();
    fill(schema, copy);
    return copy;
  }

  private static boolean needsDefaults(JsonNode schema, JsonNode value) {
    JsonNode properties = schema.get("properties");
    if (!value.isObject() || properties == null || !properties.isObject()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> entry : properties.properties()) {
      JsonNode present = value.get(entry.getKey());
      if (present == null
          ? entry.getValue().has("default")
          : needsDefaults(entry.getValue(), present)) {
        return true;
      }
    }
    return false;
  }

  private static void fill(JsonNode schema, ObjectNode value) {
    JsonNode properties = schema.get("properties");
    if (properties == null || !properties.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> entry : properties.properties()) {
      JsonNode present = value.get(entry.getKey());
      JsonNode fallback = entry.getValue().get("default");
      if (present == null && fallback != null) {
        value.set(entry.getKey(), fallback.deepCopy());
      } else if (present instanceof ObjectNode nested) {
        fill(entry.getValue(), nested);
      }
    }
  }
}
