package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.SourceVersion;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reads a component's {@code entity}. */
final class EntityReader {
  static final List<String> KEYS =
      List.of("properties", "required", "blank", "associated", "schema", "storage");

  private static final String PROPERTIES_FIX =
      "declare the entity's properties by name, such as properties: { balance: { type: integer } }";

  private EntityReader() {}

  /** The entity, with its record and changeset schemas compiled. */
  static EntityDeclaration read(Declared entity) {
    entity.mapping(KEYS, "declare the entity as a mapping with properties");
    entity
        .get("storage")
        .filter(storage -> !storage.node().isNull())
        .ifPresent(
            storage ->
                storage.text("write the name of Toa's storage, such as storage: sql, or nothing"));
    ObjectNode properties;
    List<String> required;
    Optional<Declared> schema = entity.get("schema");
    if (schema.isPresent()) {
      for (String key : List.of("properties", "required")) {
        entity
            .get(key)
            .ifPresent(
                both -> {
                  throw both.refuse(
                      "the entity is declared by schema (Toa's older form) and by "
                          + key
                          + "; keep one of them");
                });
      }
      ObjectNode expanded = schema(schema.get());
      properties = (ObjectNode) expanded.path("properties");
      List<String> listed = new ArrayList<>();
      expanded.path("required").forEach(name -> listed.add(name.asString()));
      required = List.copyOf(listed);
    } else {
      properties = properties(entity.require("properties", PROPERTIES_FIX));
      required = required(entity.get("required"), properties);
    }
    ObjectNode recordSource = objectSchema(properties, required);
    ObjectNode changesetSource = recordSource.deepCopy();
    changesetSource.remove("required");
    Location at = entity.location();
    Schema changeset = JsonSchemas.compile(changesetSource, at);
    ObjectNode blank = blank(entity.get("blank"), properties, changeset);
    boolean associated =
        entity.get("associated").map(a -> a.bool("write associated: true or false")).orElse(false);
    return new EntityDeclaration(
        properties, required, blank, associated, JsonSchemas.compile(recordSource, at), changeset);
  }

  /**
   * Toa's older {@code entity.schema}: the entity's schema whole, concise ({@code { name*: string
   * }}) or JSON Schema of an object; its properties and required names become the entity's.
   */
  private static ObjectNode schema(Declared declared) {
    ConciseSchemas.References none =
        ConciseSchemas.References.none("an entity's properties cannot refer to one another");
    JsonNode expanded = JsonSchemas.expand(declared, none);
    // as Toa reads it, a schema with properties is an object's, whether it says type: object or not
    if (!expanded.path("type").asString("object").equals("object")
        || !expanded.path("properties").isObject()) {
      throw declared.refuse(
          "an entity's schema is an object with properties, such as schema: { balance*: integer }");
    }
    for (String keyword : expanded.propertyNames()) {
      if (!List.of("type", "properties", "required", "additionalProperties").contains(keyword)) {
        throw declared.refuse(
            "'"
                + keyword
                + "' of an entity's schema has no place in toa4j's entity, which is its"
                + " properties and required names; declare those only");
      }
    }
    ObjectNode properties = (ObjectNode) expanded.path("properties");
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      Location at =
          declared
              .get("properties")
              .flatMap(p -> p.get(property.getKey()))
              .or(() -> declared.get(property.getKey()))
              .or(() -> declared.get(property.getKey() + "*"))
              .or(() -> declared.get(property.getKey() + "?"))
              .map(Declared::location)
              .orElse(declared.location());
      checkName(property.getKey(), at);
      JsonSchemas.compile(property.getValue(), at);
    }
    return (ObjectNode) expanded;
  }

  /** The properties' schemas, concise ones translated to JSON Schema. */
  private static ObjectNode properties(Declared declared) {
    declared.mapping(PROPERTIES_FIX);
    ConciseSchemas.References none =
        ConciseSchemas.References.none("an entity's properties cannot refer to one another");
    ObjectNode properties = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, Declared> property : declared.entries()) {
      checkName(property.getKey(), property.getValue().location());
      JsonNode schema = JsonSchemas.expand(property.getValue(), none);
      JsonSchemas.compile(schema, property.getValue().location());
      properties.set(property.getKey(), schema);
    }
    return properties;
  }

  private static void checkName(String name, Location at) {
    if (EntityDeclaration.SYSTEM_PROPERTIES.contains(name)) {
      throw new ManifestException(
          at,
          "System property '"
              + name
              + "' cannot be declared; it is owned by the runtime:"
              + " remove it, or give the property another name");
    }
    Token.PROPERTY_NAME.check(name, at);
    if (SourceVersion.isKeyword(name)) {
      throw new ManifestException(
          at, "'" + name + "' is a Java keyword and cannot name a field; choose another name");
    }
  }

  private static List<String> required(Optional<Declared> declared, ObjectNode properties) {
    if (declared.isEmpty()) {
      return List.of();
    }
    List<String> required = new ArrayList<>();
    for (Declared item : declared.get().items("list declared properties, such as [balance]")) {
      String name = item.text("write a property's name");
      if (!properties.has(name)) {
        throw item.refuse(notDeclared(name, properties));
      }
      if (required.contains(name)) {
        throw item.refuse("'" + name + "' is listed twice; list each property once");
      }
      required.add(name);
    }
    return List.copyOf(required);
  }

  private static ObjectNode blank(
      Optional<Declared> declared, ObjectNode properties, Schema changeset) {
    if (declared.isEmpty()) {
      return JsonNodeFactory.instance.objectNode();
    }
    Declared blank = declared.get().mapping("write the blank record's values by property");
    for (String name : blank.names()) {
      if (!properties.has(name)) {
        throw blank.get(name).orElseThrow().refuse(notDeclared(name, properties));
      }
    }
    List<Violation> violations = changeset.validate(blank.node());
    if (!violations.isEmpty()) {
      Violation first = violations.get(0);
      throw new ManifestException(
          blank.at(first.path()),
          "the blank value does not fit the property's schema: "
              + first.message()
              + "; write a value the schema accepts");
    }
    return (ObjectNode) blank.node().deepCopy();
  }

  /** {@code { type: object, properties, required, additionalProperties: false }}. */
  private static ObjectNode objectSchema(ObjectNode properties, List<String> required) {
    ObjectNode schema = JsonNodeFactory.instance.objectNode();
    schema.put("type", "object");
    schema.set("properties", properties.deepCopy());
    ArrayNode names = schema.putArray("required");
    required.forEach(names::add);
    schema.put("additionalProperties", false);
    return schema;
  }

  private static String notDeclared(String name, ObjectNode properties) {
    List<String> names = new ArrayList<>();
    properties.propertyNames().forEach(names::add);
    return "'"
        + name
        + "' is not a declared property; name one of "
        + String.join(", ", names)
        + ", or declare it under entity.properties";
  }
}
