package io.toa4j.storage.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toa4j.spi.OutboxEntry;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * An outbox entry's tasks as its {@code tasks} column holds them: a JSON array of {@code {
   * identity, endpoint, request }}; {@code null} for none.
   */
  static String tasks(List<OutboxEntry.Task> tasks) {
    if (tasks.isEmpty()) return null;
    ArrayNode array = MAPPER.createArrayNode();
    for (OutboxEntry.Task task : tasks) {
      array.addObject().put("identity", task.identity()).put("endpoint", task.endpoint()).set("request", task.request());
    }
    return write(array);
  }

  /** The tasks a {@code tasks} column holds: none when it is NULL (every entry written before). */
  static List<OutboxEntry.Task> tasks(String json, String entry) throws SQLException {
    if (json == null) return List.of();
    JsonNode array = tree(json, "the tasks of outbox entry " + entry);
    if (!array.isArray()) throw new SQLException("The stored tasks of outbox entry " + entry + " are not a list");
    List<OutboxEntry.Task> tasks = new ArrayList<>();
    for (JsonNode task : array) {
      if (!task.path("identity").isTextual() || !task.path("endpoint").isTextual() || !task.has("request")) {
        throw new SQLException("The stored tasks of outbox entry " + entry + " are not a list of { identity, endpoint, request }");
      }
      tasks.add(new OutboxEntry.Task(task.get("identity").asText(), task.get("endpoint").asText(), task.get("request")));
    }
    return tasks;
  }
}
