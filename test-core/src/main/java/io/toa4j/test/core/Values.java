package io.toa4j.test.core;

import io.toa4j.spi.Json;
import io.toa4j.spi.StoredRecord;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Values as a test states them and as the context stores them, compared as JSON values: 5000 and
 * 5000L and 5000.0 are one number, a map is equal to an object with the same properties.
 */
public final class Values {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Values() {}

  /** A JSON object's text as plain values: maps, lists, strings, numbers, booleans, nulls. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(Json json) {
    Object value = JSON.readValue(json.text(), Object.class);
    if (!(value instanceof Map<?, ?> map))
      throw new IllegalStateException("not a JSON object: " + json.text());
    return (Map<String, Object>) map;
  }

  /**
   * A record's declared properties, and {@code id}, {@code VERSION}, {@code CREATED} and {@code
   * UPDATED} (epoch milliseconds), as plain values.
   */
  public static Map<String, Object> properties(StoredRecord record) {
    Map<String, Object> properties = new LinkedHashMap<>(object(record.state()));
    properties.put("id", record.id());
    properties.put("VERSION", record.version());
    properties.put("CREATED", record.created());
    properties.put("UPDATED", record.updated());
    return properties;
  }

  /** A JSON value as plain values: maps, lists, strings, numbers, booleans, nulls. */
  static Object plain(JsonNode value) {
    return JSON.treeToValue(value, Object.class);
  }

  /** Plain values as JSON text. */
  static String json(Object value) {
    return JSON.writeValueAsString(value);
  }

  /** Whether two values are the same JSON value. */
  public static boolean same(Object actual, Object expected) {
    return normal(actual).equals(normal(expected));
  }

  /**
   * A value with every number as a BigDecimal without trailing zeros, so numbers compare by value.
   */
  private static Object normal(Object value) {
    if (value instanceof Number number) {
      BigDecimal decimal =
          number instanceof BigDecimal d
              ? d
              : number instanceof Double || number instanceof Float
                  ? BigDecimal.valueOf(number.doubleValue())
                  : new BigDecimal(number.toString());
      return decimal.stripTrailingZeros();
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> normal = new LinkedHashMap<>();
      map.forEach((k, v) -> normal.put(String.valueOf(k), normal(v)));
      return normal;
    }
    if (value instanceof List<?> list) {
      List<Object> normal = new ArrayList<>();
      list.forEach(v -> normal.add(normal(v)));
      return normal;
    }
    if (value instanceof Enum<?> e) return e.name();
    return value;
  }
}
