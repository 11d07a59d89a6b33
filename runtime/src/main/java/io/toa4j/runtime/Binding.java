package io.toa4j.runtime;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import io.toa4j.api.Entry;
import io.toa4j.spi.Json;
import io.toa4j.spi.StoredRecord;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Moves values between JSON trees and the author's classes.
 *
 * <p>Inputs and outputs bind like ordinary Jackson values (records by their components), reading
 * what the class names and ignoring the rest: an input has passed its schema before it is bound, so
 * a property there is one the schema allows, and a class that does not name it does not need it (an
 * event's payload given to an operation as its input carries {@code id} and the system properties,
 * which few input classes name). Entities bind by their fields only, private ones of {@link Entry}
 * included, so the system properties are set without any setter being visible to the author.
 * Thread-safe.
 */
final class Binding {
  static final ObjectMapper VALUES = values().addModule(new Constructors()).build();

  private static final ObjectMapper ENTITIES =
      JsonMapper.builder()
          .changeDefaultVisibility(
              visible ->
                  visible
                      .withVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                      .withVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY))
          .changeDefaultPropertyInclusion(
              included -> included.withValueInclusion(JsonInclude.Include.NON_NULL))
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          // an entity's properties in the order its class declares them, as Jackson 2 wrote them
          .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .build();

  /** Reads and writes the JSON texts that cross the SPI, as stores and buses keep them. */
  private static final ObjectMapper STORED = new JsonMapper();

  static final String ID = "id";
  static final String VERSION = "VERSION";
  static final String CREATED = "CREATED";
  static final String UPDATED = "UPDATED";

  private Binding() {}

  /** How {@link #VALUES} reads and writes, before its constructors are called through handles. */
  static JsonMapper.Builder values() {
    return JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        // plain values have one integer type, whatever size the number had
        .enable(DeserializationFeature.USE_LONG_FOR_INTS)
        .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
  }

  /** The record as a caller sees it: id first, then its properties, then the other system ones. */
  static ObjectNode view(String id, long version, long created, long updated, ObjectNode state) {
    ObjectNode view = VALUES.createObjectNode();
    view.put(ID, id);
    view.setAll(state);
    view.put(VERSION, version);
    if (version > 0) {
      view.put(CREATED, created);
      view.put(UPDATED, updated);
    }
    return view;
  }

  static ObjectNode view(StoredRecord r) {
    return view(r.id(), r.version(), r.created(), r.updated(), object(r.state()));
  }

  /** A value as the SPI carries it: its JSON text. */
  static Json json(JsonNode value) {
    try {
      return new Json(STORED.writeValueAsString(value));
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(
          "A value cannot be written as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The value a JSON text from a store or a bus holds.
   *
   * @throws IllegalStateException when the text is not JSON: the store or the bus gave back what
   *     the runtime never wrote
   */
  static JsonNode tree(Json json) {
    try {
      return STORED.readTree(json.text());
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(
          "A stored or carried value is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * A JSON text as a tree, whole numbers beyond a long included (reading with {@link #VALUES}
   * refuses them).
   */
  static JsonNode readTree(byte[] text) {
    return STORED.readTree(text);
  }

  /**
   * A copy of the tree as {@link #tree(Json)} would read back its {@link #json(JsonNode)} text,
   * node for node (a whole number as the parser makes it from its digits: an int, a long or a big
   * integer by size); null when the tree holds a node whose text could read back as another: a
   * decimal, a float, a double that is not finite, binary data, an object of Java.
   */
  static JsonNode reread(JsonNode node) {
    switch (node.getNodeType()) {
      case OBJECT:
        {
          ObjectNode copy = VALUES.createObjectNode();
          for (java.util.Map.Entry<String, JsonNode> property : node.properties()) {
            JsonNode value = reread(property.getValue());
            if (value == null) return null;
            copy.set(property.getKey(), value);
          }
          return copy;
        }
      case ARRAY:
        {
          tools.jackson.databind.node.ArrayNode copy = VALUES.createArrayNode();
          for (JsonNode element : node) {
            JsonNode value = reread(element);
            if (value == null) return null;
            copy.add(value);
          }
          return copy;
        }
      case NUMBER:
        if (node.isIntegralNumber()) {
          java.math.BigInteger value = node.bigIntegerValue();
          if (value.bitLength() < 32) return VALUES.getNodeFactory().numberNode(value.intValue());
          if (value.bitLength() < 64) return VALUES.getNodeFactory().numberNode(value.longValue());
          return VALUES.getNodeFactory().numberNode(value);
        }
        return node.isDouble() && Double.isFinite(node.doubleValue()) ? node : null;
      case STRING:
      case BOOLEAN:
      case NULL:
        return node; // immutable
      default:
        return null;
    }
  }

  /** The object a JSON text holds, such as a record's state or an event's change. */
  static ObjectNode object(Json json) {
    JsonNode tree = tree(json);
    if (tree instanceof ObjectNode object) return object;
    throw new IllegalStateException(
        "A stored value is not a JSON object but " + tree.getNodeType());
  }

  /** A fresh entity object holding the record. */
  static <E extends Entry> E entity(
      Class<E> type, String id, long version, long created, long updated, ObjectNode state) {
    ObjectNode tree = view(id, version, created, updated, state);
    try {
      return ENTITIES.treeToValue(tree, type);
    } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "Record " + id + " cannot be read into " + type.getName() + ": " + e.getMessage(), e);
    }
  }

  /** A fresh entity object holding a record's view (its properties and system properties). */
  static <E extends Entry> E entity(Class<E> type, ObjectNode view) {
    try {
      return ENTITIES.treeToValue(view, type);
    } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "A record cannot be read into " + type.getName() + ": " + e.getMessage(), e);
    }
  }

  /** An entity object as a record view: its properties and its system properties. */
  static ObjectNode view(Entry entity) {
    return ENTITIES.valueToTree(entity);
  }

  /** The declared properties the entity object holds now, without system properties. */
  static ObjectNode state(Entry entity) {
    ObjectNode tree = ENTITIES.valueToTree(entity);
    tree.remove(ID);
    tree.remove(VERSION);
    tree.remove(CREATED);
    tree.remove(UPDATED);
    return tree;
  }

  /** A plain value (map, list, record, number, ...) as a tree. */
  static JsonNode tree(Object value) {
    return VALUES.valueToTree(value);
  }

  /**
   * A tree as plain Java values: maps, lists, strings, numbers, booleans; what {@link #VALUES}
   * converts it to ({@code convertValue(tree, Object.class)}), value for value and type for type,
   * except that a whole number beyond a long is a {@link java.math.BigInteger}, which that
   * conversion refuses. Objects, arrays, strings, booleans, nulls and whole numbers are walked
   * here, since every reply passes through this and Jackson's conversion writes the tree into a
   * buffer of tokens and reads it back; any other node is Jackson's to convert.
   */
  static Object plain(JsonNode tree) {
    switch (tree.getNodeType()) {
      case OBJECT:
        {
          java.util.Map<String, Object> values = new java.util.LinkedHashMap<>();
          for (java.util.Map.Entry<String, JsonNode> property : tree.properties()) {
            values.put(property.getKey(), plain(property.getValue()));
          }
          return values;
        }
      case ARRAY:
        {
          java.util.List<Object> values = new java.util.ArrayList<>(tree.size());
          for (JsonNode element : tree) values.add(plain(element));
          return values;
        }
      case STRING:
        return tree.stringValue();
      case BOOLEAN:
        return tree.booleanValue();
      case NULL:
        return null;
      case NUMBER:
        // USE_LONG_FOR_INTS: every whole number that fits a long is a Long; beyond, a BigInteger,
        // where Jackson's conversion refuses the number
        if (tree.isShort() || tree.isInt() || tree.isLong()) return tree.longValue();
        if (tree.isBigInteger())
          return tree.canConvertToLong() ? tree.longValue() : tree.bigIntegerValue();
        break;
      default:
        break;
    }
    return VALUES.convertValue(tree, Object.class);
  }
}
