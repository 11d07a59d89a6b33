package io.toa4j.storage.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.toa4j.spi.OutboxEntry;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * An outbox entry's tasks as the {@code tasks} column holds them: a JSON array of {@code {
 * identity, endpoint, request }}, or NULL when there are none (every entry written before tasks
 * were kept).
 */
final class Tasks {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Tasks() {}

  /** The column's text: {@code null} for no task. */
  static String write(List<OutboxEntry.Task> tasks) {
    if (tasks.isEmpty()) return null;
    ArrayNode array = JSON.createArrayNode();
    for (OutboxEntry.Task task : tasks) {
      array.addObject().put("identity", task.identity()).put("endpoint", task.endpoint()).set("request", task.request());
    }
    try {
      return JSON.writeValueAsString(array);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("The tasks of an outbox entry cannot be written as JSON", e);
    }
  }

  /** The tasks the column's text holds. */
  static List<OutboxEntry.Task> read(String text, String entry) throws SQLException {
    if (text == null) return List.of();
    JsonNode array;
    try {
      array = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new SQLException("The stored tasks of outbox entry " + entry + " are not JSON", e);
    }
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
