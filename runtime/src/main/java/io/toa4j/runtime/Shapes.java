package io.toa4j.runtime;

import io.toa4j.api.Entry;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Checks at load that an author's class has the shape of a schema: one field (or record component)
 * per property, each of a Java type that can hold the property's JSON type.
 */
final class Shapes {
  private Shapes() {}

  /**
   * The ways {@code type} does not fit the object schema's {@code properties}; empty when it fits.
   */
  static List<String> mismatches(Class<?> type, JsonNode properties) {
    Map<String, Type> members = members(type);
    List<String> problems = new ArrayList<>();
    members.forEach(
        (name, javaType) -> {
          JsonNode schema = properties.get(name);
          if (schema == null) {
            problems.add(
                "'"
                    + name
                    + "' is not a property of the schema (properties: "
                    + names(properties)
                    + ")");
          } else if (!fits(javaType, schema)) {
            problems.add(
                "'"
                    + name
                    + "' is a "
                    + javaType.getTypeName()
                    + ", which cannot hold the schema's "
                    + schema.path("type"));
          }
        });
    for (String name : properties.propertyNames()) {
      if (!members.containsKey(name))
        problems.add("property '" + name + "' of the schema has no member here");
    }
    return problems;
  }

  /** Whether a value of the schema can be bound to this Java type (used for non-object inputs). */
  static boolean fits(Type javaType, JsonNode schema) {
    JsonNode type = schema.get("type");
    if (type == null) return true;
    if (type.isString()) return fitsOne(javaType, type.asString());
    for (JsonNode t : type) {
      if (!t.asString().equals("null") && !fitsOne(javaType, t.asString())) return false;
      if (t.asString().equals("null") && raw(javaType).isPrimitive()) return false;
    }
    return true;
  }

  private static boolean fitsOne(Type javaType, String jsonType) {
    Class<?> c = box(raw(javaType));
    if (c == Object.class || JsonNode.class.isAssignableFrom(c)) return true;
    switch (jsonType) {
      case "integer":
        return c == Long.class || c == Integer.class || c == Short.class || c == BigInteger.class;
      case "number":
        return c == Double.class || c == Float.class || c == BigDecimal.class;
      case "string":
        return c == String.class || c.isEnum();
      case "boolean":
        return c == Boolean.class;
      case "object":
        return Map.class.isAssignableFrom(c)
            || c.isRecord()
            || (!c.isInterface()
                && !c.isPrimitive()
                && !isScalar(c)
                && !Collection.class.isAssignableFrom(c)
                && !c.isArray());
      case "array":
        return List.class.isAssignableFrom(c) || Set.class.isAssignableFrom(c) || c.isArray();
      case "null":
        return !raw(javaType).isPrimitive();
      default:
        return false;
    }
  }

  private static boolean isScalar(Class<?> c) {
    return c == String.class
        || Number.class.isAssignableFrom(c)
        || c == Boolean.class
        || c == Character.class
        || c.isEnum();
  }

  private static Map<String, Type> members(Class<?> type) {
    Map<String, Type> members = new LinkedHashMap<>();
    if (type.isRecord()) {
      for (RecordComponent rc : type.getRecordComponents())
        members.put(rc.getName(), rc.getGenericType());
      return members;
    }
    for (Class<?> c = type;
        c != null && c != Entry.class && c != Object.class;
        c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        int m = f.getModifiers();
        if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) continue;
        members.putIfAbsent(f.getName(), f.getGenericType());
      }
    }
    return members;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) return c;
    if (type instanceof java.lang.reflect.ParameterizedType p) return (Class<?>) p.getRawType();
    if (type instanceof java.lang.reflect.GenericArrayType) return Object[].class;
    return Object.class;
  }

  private static Class<?> box(Class<?> c) {
    if (!c.isPrimitive()) return c;
    if (c == long.class) return Long.class;
    if (c == int.class) return Integer.class;
    if (c == short.class) return Short.class;
    if (c == double.class) return Double.class;
    if (c == float.class) return Float.class;
    if (c == boolean.class) return Boolean.class;
    if (c == byte.class) return Byte.class;
    return Character.class;
  }

  private static String names(JsonNode properties) {
    List<String> names = new ArrayList<>();
    properties.propertyNames().forEach(names::add);
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
