package io.toa4j.storage.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.SQLException;

/** JSON to and from the text of {@code jsonb} columns. */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("A value cannot be written as JSON", e);
    }
  }

  static JsonNode tree(String json, String of) throws SQLException {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new SQLException("The stored JSON of " + of + " is not JSON", e);
    }
  }

  static ObjectNode object(String json, String of) throws SQLException {
    JsonNode node = tree(json, of);
    if (node instanceof ObjectNode object) return object;
    throw new SQLException("The stored JSON of " + of + " is not an object but " + node.getNodeType());
  }
}
