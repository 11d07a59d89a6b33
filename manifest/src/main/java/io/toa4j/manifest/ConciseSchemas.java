package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Toa's concise schemas, translated to JSON Schema at load (see docs/manifest.md).
 *
 * <ul>
 *   <li>a type name: {@code string} is {@code { type: string }}; the same for number, integer,
 *       boolean, array and object;
 *   <li>{@code id}: a record's id, {@code { type: string, pattern: ^[0-9a-fA-F]{32}$ }};
 *   <li>{@code .balance}: the schema of the entity's property {@code balance}, and a bare {@code .}
 *       as a property's schema, that of the entity's property of the same name ({@code { balance: .
 *       }});
 *   <li>a one-item list: {@code [number]} is {@code { type: array, items: { type: number } }};
 *   <li>a concise mapping: {@code { limit: number }} is an object of those properties and no
 *       others; a name ending in {@code *} is required, and once any name ends in {@code ?} the
 *       names without a mark are required too.
 * </ul>
 *
 * <p>A mapping one of whose keys carries a mark ({@code title*}: no keyword ends in one) is
 * concise. Otherwise, as in Toa, a mapping with {@code type}, {@code oneOf} or {@code $ref} is JSON
 * Schema, checked as such (an unknown keyword in it is refused); and any other mapping is concise
 * when it is empty or one of its keys is no JSON Schema keyword ({@code { title: string, body:
 * string }} cannot be a valid schema): each of its values is then read as a schema, concise or JSON
 * Schema ({@code { foo: { type: integer, default: 0 } }}). A mapping of keywords alone ({@code {
 * minimum: 0 }}) is JSON Schema.
 */
final class ConciseSchemas {
  /** Toa's {@code string(n)}: a string of at most n characters. */
  private static final Pattern BOUNDED_STRING = Pattern.compile("string\\((\\d{1,9})\\)");

  static final List<String> TYPES =
      List.of("string", "number", "integer", "boolean", "array", "object");

  /** A record id, as the runtime checks ids in requests. */
  static final String ID_PATTERN = "^[0-9a-fA-F]{32}$";

  /** Keywords that annotate and accept any value, so {@code { title: string }} would be silent. */
  private static final Set<String> ANNOTATIONS = Set.of("title", "description", "$comment");

  private static final String FORMS =
      "write a type name ("
          + String.join(", ", TYPES)
          + ", id), .property for an entity's"
          + " property, [type] for a list, a mapping of property names to these, or a JSON Schema"
          + " mapping such as { type: string }";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * What {@code .property} refers to: the entity's properties, or why there are none to refer to.
   */
  record References(Optional<ObjectNode> properties, String absence) {
    static References entity(ObjectNode properties) {
      return new References(Optional.of(properties), "");
    }

    static References none(String absence) {
      return new References(Optional.empty(), absence);
    }
  }

  private ConciseSchemas() {}

  /** The schema as JSON Schema: concise forms translated, JSON Schema parts checked. */
  static JsonNode expand(Declared schema, References references) {
    JsonNode node = schema.node();
    if (node.isString()) {
      return type(schema, node.stringValue(), references);
    }
    if (node.isArray()) {
      return array(schema, references);
    }
    if (node.isNumber() || node.isBoolean()) {
      return literal(node);
    }
    if (node.isObject() && isConcise(node)) {
      return object(schema, references);
    }
    if (node.isObject()) {
      refuseSilentAnnotation(schema);
      JsonSchemas.check(schema);
      return SchemaKeywords.nullable(node);
    }
    throw schema.refuse("expected a schema, found " + Declared.describe(node) + "; " + FORMS);
  }

  /** Whether a mapping is concise, by the rule above. */
  static boolean isConcise(JsonNode node) {
    if (!node.isObject()) {
      return false;
    }
    if (node.isEmpty()) {
      return true; // {}: an object with no property, as Toa reads it
    }
    for (String key : node.propertyNames()) {
      if (!unmarked(key).equals(key)) {
        return true; // a marked key: no keyword ends in * or ?
      }
    }
    if (node.has("type") || node.has("oneOf") || node.has("$ref")) {
      return false; // JSON Schema, as Toa tells them apart
    }
    for (String key : node.propertyNames()) {
      if (!SchemaKeywords.isKeyword(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A number or a boolean written as the schema (and any text that is not a type, in {@link
   * #type}): its type, with the value as its default, as Toa's concise library reads it ({@code
   * times: 1} is a number that is 1 when not given). Any number is of type number there, 1 as much
   * as 1.5.
   */
  private static JsonNode literal(JsonNode value) {
    ObjectNode schema = NODES.objectNode().put("type", value.isBoolean() ? "boolean" : "number");
    schema.set("default", value.deepCopy());
    return schema;
  }

  private static JsonNode type(Declared at, String name, References references) {
    if (TYPES.contains(name)) {
      return NODES.objectNode().put("type", name);
    }
    Matcher bounded = BOUNDED_STRING.matcher(name);
    if (bounded.matches()) { // Toa's string(32): a string of at most 32 characters
      return NODES
          .objectNode()
          .put("type", "string")
          .put("maxLength", Integer.parseInt(bounded.group(1)));
    }
    if (name.equals("id")) {
      return NODES.objectNode().put("type", "string").put("pattern", ID_PATTERN);
    }
    if (name.startsWith(".")) {
      return reference(at, name.substring(1), references);
    }
    if (name.length() > 2
        && name.startsWith("/")
        && name.endsWith("/")) { // Toa's /^foo_/: a string of that pattern
      return NODES
          .objectNode()
          .put("type", "string")
          .put("pattern", name.substring(1, name.length() - 1));
    }
    for (String type : TYPES) {
      if (type.equalsIgnoreCase(name)) { // String: the type meant, not a default of that text
        throw at.refuse(
            "'"
                + name
                + "' is not a concise type"
                + at.line()
                + "; write "
                + type
                + ", in lower case, or"
                + " { type: string, default: "
                + name
                + " } for a text that is "
                + name
                + " when not given");
      }
    }
    ObjectNode text =
        NODES
            .objectNode()
            .put(
                "type",
                "string"); // any other text: a string that is it when not given, as Toa reads it
    text.put("default", name);
    return text;
  }

  private static JsonNode reference(Declared at, String property, References references) {
    if (references.properties().isEmpty()) {
      throw at.refuse(
          "'."
              + property
              + "' refers to the entity's property '"
              + property
              + "', but "
              + references.absence()
              + at.line()
              + "; write the property's schema itself");
    }
    ObjectNode properties = references.properties().get();
    JsonNode schema = properties.get(property);
    if (schema == null) {
      List<String> names = new ArrayList<>();
      properties.propertyNames().forEach(names::add);
      throw at.refuse(
          "'."
              + property
              + "' refers to the entity's property '"
              + property
              + "', which is not declared"
              + at.line()
              + "; refer to one of "
              + String.join(", ", names.stream().map(n -> "." + n).toList()));
    }
    return schema.deepCopy();
  }

  private static JsonNode array(Declared list, References references) {
    List<Declared> items = list.items("list one item type, such as [number]");
    if (items.size() != 1) {
      throw list.refuse(
          "a concise list declares the type of its items and has one item, such as"
              + " [number], found "
              + items.size()
              + list.line()
              + "; for one of several values write"
              + " { enum: [a, b] }, for several shapes { oneOf: [...] }");
    }
    ObjectNode schema = NODES.objectNode().put("type", "array");
    schema.set("items", expand(items.get(0), references));
    return schema;
  }

  private static JsonNode object(Declared mapping, References references) {
    boolean optionalMarked = mapping.names().stream().anyMatch(n -> n.endsWith("?"));
    ObjectNode properties = NODES.objectNode();
    ArrayNode required = NODES.arrayNode();
    for (Map.Entry<String, Declared> entry : mapping.entries()) {
      String key = entry.getKey();
      String name = unmarked(key);
      if (name.equals("~")) {
        throw entry
            .getValue()
            .refuse(
                "Toa's wildcard key '~' is not read here"
                    + entry.getValue().line()
                    + "; for values under any name write { type: object,"
                    + " additionalProperties: <schema> }");
      }
      if (name.length() > 1 && name.startsWith("/") && name.endsWith("/")) {
        throw entry
            .getValue()
            .refuse(
                "Toa's pattern key '"
                    + name
                    + "' is not read here"
                    + entry.getValue().line()
                    + "; write { type: object, patternProperties: { '"
                    + name.substring(1, name.length() - 1)
                    + "': <schema> } }");
      }
      if (name.isEmpty()) {
        throw entry
            .getValue()
            .refuse(
                "'"
                    + key
                    + "' names no property; write a name before the"
                    + " mark, such as limit* for a required limit");
      }
      if (properties.has(name)) {
        throw entry.getValue().refuse("the property '" + name + "' is declared twice; keep one");
      }
      JsonNode value = entry.getValue().node();
      boolean same =
          value.isString()
              && value
                  .stringValue()
                  .equals("."); // Toa's bare '.': the entity's property of this name
      properties.set(
          name,
          same
              ? reference(entry.getValue(), name, references)
              : expand(entry.getValue(), references));
      if (key.endsWith("*") || (optionalMarked && !key.endsWith("?"))) {
        required.add(name);
      }
    }
    ObjectNode schema = NODES.objectNode().put("type", "object");
    schema.set("properties", properties);
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  /** {@code { title: string }}: JSON Schema that accepts anything, though it reads as concise. */
  private static void refuseSilentAnnotation(Declared mapping) {
    for (Map.Entry<String, Declared> entry : mapping.entries()) {
      JsonNode value = entry.getValue().node();
      boolean typeName =
          value.isString()
              && (TYPES.contains(value.stringValue())
                  || value.stringValue().equals("id")
                  || value.stringValue().startsWith("."));
      if (!ANNOTATIONS.contains(entry.getKey()) || !typeName) {
        return;
      }
    }
    if (mapping.names().isEmpty()) return;
    String first = mapping.names().get(0);
    Declared key = mapping.child(first);
    throw key.refuse(
        "'"
            + first
            + "' is a JSON Schema annotation, so this"
            + " mapping would accept any value"
            + key.line()
            + "; to declare a property named "
            + first
            + " write"
            + " { type: object, properties: { "
            + first
            + ": { type: string } },"
            + " additionalProperties: false }, or add keywords that say what the schema accepts");
  }

  /** The property name without its required ({@code *}) or optional ({@code ?}) mark. */
  private static String unmarked(String key) {
    return key.endsWith("*") || key.endsWith("?") ? key.substring(0, key.length() - 1) : key;
  }
}
