package io.toa4j.test.core;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Values drawn at random for a JSON Schema, for {@link Check}: the keywords a manifest's schemas
 * use ({@code type}, {@code enum}, {@code const}, the bounds of numbers, strings and lists, {@code
 * properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code prefixItems},
 * {@code anyOf}, {@code oneOf}, {@code allOf}'s first schema, local {@code $ref}s) are followed;
 * the others are not, and a value that does not fit is thrown away by the caller, which validates
 * each one with the manifest's own validator. A {@code pattern} for a record id (32 hexadecimal
 * characters) draws an id of a record that exists, most times.
 *
 * <p>Values come from small pools (short strings of a few letters, small numbers near the bounds)
 * so that two draws meet often: a repeat is most telling on a value that was seen before. Not
 * thread-safe: one per run of a check, driven by its seeded {@link Random}.
 */
final class SchemaValues {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int DEPTH = 4;

  private final Random random;
  private final List<String> ids;

  /**
   * @param random where every choice comes from
   * @param ids the ids of records that exist, which an id drawn for a schema is most times one of
   */
  SchemaValues(Random random, List<String> ids) {
    this.random = random;
    this.ids = List.copyOf(ids);
  }

  /** A value for {@code schema}, whose local {@code $ref}s point into {@code root}. */
  JsonNode draw(JsonNode root, JsonNode schema) {
    return draw(root, schema, 0);
  }

  /** An id: one of {@code among} three times in four, else a new one. */
  String id(List<String> among) {
    if (!among.isEmpty() && random.nextInt(4) > 0) return among.get(random.nextInt(among.size()));
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private JsonNode draw(JsonNode root, JsonNode schema, int depth) {
    if (depth > 4 * DEPTH)
      return NODES
          .nullNode(); // a schema that refers to itself: a value that does not fit, thrown away
    if (schema.isBoolean()) return schema.asBoolean() ? NODES.stringNode(word()) : NODES.nullNode();
    if (schema.has("$ref"))
      return draw(root, referred(root, schema.get("$ref").asString()), depth + 1);
    if (schema.has("const")) return schema.get("const");
    if (schema.has("enum") && !schema.get("enum").isEmpty()) return pick(schema.get("enum"));
    for (String choice : List.of("anyOf", "oneOf")) {
      if (schema.has(choice) && !schema.get(choice).isEmpty())
        return draw(root, pick(schema.get(choice)), depth + 1);
    }
    if (schema.has("allOf") && !schema.get("allOf").isEmpty())
      return draw(root, schema.get("allOf").get(0), depth + 1);
    return switch (type(schema)) {
      case "string" -> NODES.stringNode(string(schema));
      case "integer" -> NODES.numberNode(integer(schema));
      case "number" -> NODES.numberNode(number(schema));
      case "boolean" -> NODES.booleanNode(random.nextBoolean());
      case "null" -> NODES.nullNode();
      case "array" -> array(root, schema, depth);
      default -> object(root, schema, depth);
    };
  }

  /**
   * The type to draw: the one declared, one of those declared, or, when none is, one guessed from
   * the keywords.
   */
  private String type(JsonNode schema) {
    JsonNode type = schema.path("type");
    if (type.isString()) return type.asString();
    if (type.isArray() && !type.isEmpty()) return pick(type).asString();
    if (schema.has("properties") || schema.has("required") || schema.has("additionalProperties"))
      return "object";
    if (schema.has("items") || schema.has("prefixItems")) return "array";
    if (schema.has("minimum") || schema.has("maximum")) return "integer";
    if (schema.has("minLength") || schema.has("maxLength") || schema.has("pattern"))
      return "string";
    return random.nextBoolean() ? "string" : "integer";
  }

  private String string(JsonNode schema) {
    if (schema.path("pattern").asString("").contains("{32}")) return id(ids);
    int min = schema.path("minLength").asInt(0);
    int max = Math.max(min, schema.path("maxLength").asInt(Math.max(min, 8)));
    int length = min + random.nextInt(Math.min(max, min + 8) - min + 1);
    StringBuilder text = new StringBuilder();
    while (text.length() < length) text.append(word());
    return text.substring(0, length);
  }

  /** One of a few short words, so that strings drawn twice are often the same. */
  private String word() {
    return List.of("a", "b", "co_1", "co_2", "x", "yz").get(random.nextInt(6));
  }

  private long integer(JsonNode schema) {
    long min =
        schema.has("minimum") ? (long) Math.ceil(schema.get("minimum").asDouble()) : Long.MIN_VALUE;
    if (schema.has("exclusiveMinimum"))
      min = Math.max(min, (long) Math.floor(schema.get("exclusiveMinimum").asDouble()) + 1);
    long max =
        schema.has("maximum")
            ? (long) Math.floor(schema.get("maximum").asDouble())
            : Long.MAX_VALUE;
    if (schema.has("exclusiveMaximum"))
      max = Math.min(max, (long) Math.ceil(schema.get("exclusiveMaximum").asDouble()) - 1);
    if (min == Long.MIN_VALUE) min = max < 1000 ? max - 1000 : 0;
    if (max == Long.MAX_VALUE) max = min + 1000;
    if (max < min) return min;
    long span = Math.min(max - min, 1000);
    long value =
        random.nextInt(5) == 0
            ? (random.nextBoolean() ? min : max)
            : min + (long) (random.nextDouble() * (span + 1));
    long step = schema.path("multipleOf").asLong(0);
    return step > 0 ? Math.max(min, value - Math.floorMod(value, step)) : value;
  }

  /**
   * A number between the bounds, in hundredths of the span; the middle when that falls on a bound
   * excluded.
   */
  private double number(JsonNode schema) {
    double low =
        Math.max(
            schema.path("minimum").asDouble(-Double.MAX_VALUE),
            schema.path("exclusiveMinimum").asDouble(-Double.MAX_VALUE));
    double high =
        Math.min(
            schema.path("maximum").asDouble(Double.MAX_VALUE),
            schema.path("exclusiveMaximum").asDouble(Double.MAX_VALUE));
    if (low == -Double.MAX_VALUE) low = Math.min(0, high);
    if (high == Double.MAX_VALUE) high = low + 1000;
    double value = low + (high - low) * random.nextInt(101) / 100.0;
    boolean excluded =
        value <= schema.path("exclusiveMinimum").asDouble(-Double.MAX_VALUE)
            || value >= schema.path("exclusiveMaximum").asDouble(Double.MAX_VALUE);
    return excluded ? (low + high) / 2 : value;
  }

  private JsonNode array(JsonNode root, JsonNode schema, int depth) {
    ArrayNode array = NODES.arrayNode();
    for (JsonNode item : schema.path("prefixItems")) array.add(draw(root, item, depth + 1));
    JsonNode items = schema.path("items");
    if (items.isBoolean() && !items.asBoolean()) return array; // no item beyond the prefix
    int min = schema.path("minItems").asInt(0);
    int max = Math.max(min, schema.path("maxItems").asInt(min + 3));
    int size = depth >= DEPTH ? min : min + random.nextInt(Math.min(max, min + 3) - min + 1);
    while (array.size() < size)
      array.add(items.isMissingNode() ? NODES.stringNode(word()) : draw(root, items, depth + 1));
    return array;
  }

  /**
   * The required properties, each other declared one half the time, and a few more where more are
   * allowed.
   */
  private JsonNode object(JsonNode root, JsonNode schema, int depth) {
    ObjectNode object = NODES.objectNode();
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(name -> required.add(name.asString()));
    for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
      if (required.contains(property.getKey()) || (depth < DEPTH && random.nextBoolean())) {
        object.set(property.getKey(), draw(root, property.getValue(), depth + 1));
      }
    }
    JsonNode more = schema.path("additionalProperties");
    if (more.isObject() && depth < DEPTH) {
      for (int i = random.nextInt(3); i > 0; i--) object.set(word(), draw(root, more, depth + 1));
    }
    for (String name : required) {
      if (!object.has(name)) object.set(name, NODES.stringNode(word()));
    }
    return object;
  }

  /**
   * The schema a local reference ({@code #/$defs/money}) points at; an empty schema for any other.
   */
  private static JsonNode referred(JsonNode root, String ref) {
    if (!ref.startsWith("#")) return NODES.objectNode();
    JsonNode target = root.at(ref.substring(1));
    return target.isMissingNode() ? NODES.objectNode() : target;
  }

  private JsonNode pick(JsonNode choices) {
    Iterator<JsonNode> all = choices.iterator();
    JsonNode chosen = all.next();
    for (int i = random.nextInt(choices.size()); i > 0; i--) chosen = all.next();
    return chosen;
  }
}
