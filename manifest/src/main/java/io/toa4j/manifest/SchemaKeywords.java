package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON Schema draft 2020-12 keywords a manifest's schema may use, and the refusal of any other.
 *
 * <p>networknt treats a keyword it does not know as an annotation and only logs it, so a misspelt
 * {@code requried} or a concise mapping taken for JSON Schema would load as a schema that accepts
 * anything. Every schema is walked before it is compiled: a key that is not a keyword is refused at
 * its YAML path, naming the nearest keyword when one is close. Values that are data ({@code enum},
 * {@code const}, {@code default}, {@code examples}) are not walked.
 */
final class SchemaKeywords {
  /** OpenAPI's (and Toa's) {@code nullable}, translated at load by {@link #nullable(JsonNode)}. */
  static final String NULLABLE = "nullable";

  /** Keywords whose value is one schema. */
  private static final Set<String> ONE_SCHEMA =
      Set.of(
          "additionalProperties",
          "unevaluatedProperties",
          "items",
          "unevaluatedItems",
          "contains",
          "propertyNames",
          "not",
          "if",
          "then",
          "else",
          "contentSchema");

  /** Keywords whose value is a mapping of names to schemas. */
  private static final Set<String> SCHEMA_BY_NAME =
      Set.of("properties", "patternProperties", "$defs", "dependentSchemas");

  /** Keywords whose value is a list of schemas. */
  private static final Set<String> SCHEMA_LIST = Set.of("allOf", "anyOf", "oneOf", "prefixItems");

  /** Every other keyword of draft 2020-12's vocabularies. */
  private static final Set<String> OTHER =
      Set.of(
          "$schema",
          "$id",
          "$ref",
          "$anchor",
          "$dynamicRef",
          "$dynamicAnchor",
          "$vocabulary",
          "$comment",
          "type",
          "const",
          "enum",
          "multipleOf",
          "maximum",
          "exclusiveMaximum",
          "minimum",
          "exclusiveMinimum",
          "maxLength",
          "minLength",
          "pattern",
          "maxItems",
          "minItems",
          "uniqueItems",
          "maxContains",
          "minContains",
          "maxProperties",
          "minProperties",
          "required",
          "dependentRequired",
          "title",
          "description",
          "default",
          "deprecated",
          "readOnly",
          "writeOnly",
          "examples",
          "format",
          "contentEncoding",
          "contentMediaType",
          NULLABLE);

  /** Keywords of other drafts and dialects, with what to write instead. */
  private static final Map<String, String> REPLACED =
      Map.of(
          "definitions",
              "it is draft-07's; write $defs, and refer to its entries as"
                  + " $ref: '#/$defs/<name>'",
          "dependencies",
              "it is draft-07's; write dependentRequired for a list of names, or"
                  + " dependentSchemas for a schema",
          "additionalItems",
              "it is draft-07's; write prefixItems for the leading items and items"
                  + " for the rest");

  /** All keywords known here, sorted, for suggestions. */
  private static final List<String> KNOWN =
      Stream.of(ONE_SCHEMA, SCHEMA_BY_NAME, SCHEMA_LIST, OTHER)
          .flatMap(Set::stream)
          .sorted()
          .toList();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private SchemaKeywords() {}

  /** Whether the key is a draft 2020-12 keyword. */
  static boolean isKeyword(String key) {
    return KNOWN.contains(key);
  }

  /** Refuses the first key, anywhere in the schema, that is not a keyword. */
  static void check(Declared schema) {
    if (!schema.node().isObject()) {
      return; // a boolean schema, or a shape the meta-schema refuses with its own message
    }
    for (Map.Entry<String, Declared> entry : schema.entries()) {
      String key = entry.getKey();
      Declared value = entry.getValue();
      if (REPLACED.containsKey(key)) {
        throw value.refuse(
            "'" + key + "' is not supported" + value.line() + "; " + REPLACED.get(key));
      }
      if (!KNOWN.contains(key)) {
        throw value.refuse(unknown(key, value.line()));
      }
      if (key.equals(NULLABLE) && !value.node().isBoolean()) {
        throw value.refuse(
            "'nullable' is true or false, found "
                + Declared.describe(value.node())
                + value.line()
                + "; write nullable: true to accept null as well");
      }
    }
    subschemas(schema).forEach(SchemaKeywords::check);
  }

  /** The schemas directly inside this one: under properties, items, anyOf and the like. */
  static List<Declared> subschemas(Declared schema) {
    List<Declared> found = new ArrayList<>();
    if (!schema.node().isObject()) {
      return found;
    }
    for (Map.Entry<String, Declared> entry : schema.entries()) {
      String key = entry.getKey();
      Declared value = entry.getValue();
      if (ONE_SCHEMA.contains(key)) {
        found.add(value);
      } else if (SCHEMA_BY_NAME.contains(key) && value.node().isObject()) {
        value.entries().forEach(named -> found.add(named.getValue()));
      } else if (SCHEMA_LIST.contains(key) && value.node().isArray()) {
        found.addAll(value.items("list schemas"));
      }
    }
    return found;
  }

  /**
   * The schema with {@code nullable} translated to draft 2020-12, all the way down: {@code
   * nullable: true} adds "null" to {@code type}, or, when there is no {@code type} or an {@code
   * enum} or {@code const} would still refuse null, wraps the schema as {@code anyOf: [schema, {
   * type: "null" }]} (its {@code default}, {@code $defs}, {@code $schema} and {@code $id} stay
   * outside); {@code nullable: false} is dropped. The schema must have passed {@link
   * #check(Declared)}.
   */
  static JsonNode nullable(JsonNode schema) {
    if (!schema.isObject()) {
      return schema.deepCopy();
    }
    ObjectNode copy = NODES.objectNode();
    for (Map.Entry<String, JsonNode> entry : schema.properties()) {
      String key = entry.getKey();
      JsonNode value = entry.getValue();
      if (ONE_SCHEMA.contains(key)) {
        copy.set(key, nullable(value));
      } else if (SCHEMA_BY_NAME.contains(key) && value.isObject()) {
        ObjectNode named = copy.putObject(key);
        value.properties().forEach(e -> named.set(e.getKey(), nullable(e.getValue())));
      } else if (SCHEMA_LIST.contains(key) && value.isArray()) {
        ArrayNode list = copy.putArray(key);
        value.forEach(item -> list.add(nullable(item)));
      } else {
        copy.set(key, value.deepCopy());
      }
    }
    JsonNode flag = copy.remove(NULLABLE);
    if (flag == null || !flag.asBoolean()) {
      return copy;
    }
    JsonNode type = copy.get("type");
    if (type != null && !copy.has("enum") && !copy.has("const")) {
      ArrayNode types = NODES.arrayNode();
      if (type.isArray()) {
        types.addAll((ArrayNode) type);
      } else {
        types.add(type);
      }
      if (types.valueStream().noneMatch(t -> t.asString().equals("null"))) {
        types.add("null");
      }
      copy.set("type", types);
      return copy;
    }
    ObjectNode wrapped = NODES.objectNode();
    wrapped.putArray("anyOf").add(copy).add(NODES.objectNode().put("type", "null"));
    for (String outside : List.of("default", "$defs", "$schema", "$id")) {
      JsonNode moved = copy.remove(outside);
      if (moved != null) {
        wrapped.set(outside, moved);
      }
    }
    return wrapped;
  }

  /** The problem with an unknown key, naming the keyword probably meant. */
  static String unknown(String key, String line) {
    String problem = "'" + key + "' is not a JSON Schema keyword" + line;
    return problem
        + nearest(key)
            .map(k -> "; did you mean '" + k + "'?")
            .orElse(
                "; write draft 2020-12 keywords only, such as type, properties, required, minimum,"
                    + " maxLength, pattern, enum, items, or write the schema in the concise form, such as"
                    + " { "
                    + key
                    + ": string }, to declare a property of that name");
  }

  /** The keyword within a third of the key's length in edits (at least one, at most three). */
  static Optional<String> nearest(String key) {
    int bound = Math.max(1, Math.min(3, key.length() / 3));
    return KNOWN.stream()
        .filter(k -> distance(key.toLowerCase(), k.toLowerCase()) <= bound)
        .min(Comparator.comparingInt(k -> distance(key.toLowerCase(), k.toLowerCase())));
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
