package io.toa4j.runtime;

import io.toa4j.spi.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * A call with nobody waiting, sent by an operation: held until its run may send it, committed in
 * the outbox entry of the write it made (a JSON array the store keeps as it is), and put on its
 * component's task queue after the commit.
 *
 * @param identity the call's identity, derived from the one its operation served; the message's id,
 *     the same however many times the entry is published
 * @param endpoint {@code namespace.name.operation}
 * @param request {@code { query, input }}
 */
record Task(String identity, String endpoint, JsonNode request) {
  Task {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(request, "request");
  }

  /**
   * The tasks as an outbox entry carries them: a JSON array of {@code { identity, endpoint, request
   * }}; empty for none.
   */
  static Optional<Json> encode(List<Task> tasks) {
    if (tasks.isEmpty()) return Optional.empty();
    ArrayNode array = Binding.VALUES.createArrayNode();
    for (Task task : tasks)
      array
          .addObject()
          .put("identity", task.identity())
          .put("endpoint", task.endpoint())
          .set("request", task.request());
    return Optional.of(Binding.json(array));
  }

  /**
   * The tasks an outbox entry carries, in order.
   *
   * @throws IllegalStateException when what the store gave back is not such an array
   */
  static List<Task> decode(Optional<Json> tasks) {
    if (tasks.isEmpty()) return List.of();
    JsonNode array = Binding.tree(tasks.get());
    List<Task> decoded = new ArrayList<>();
    for (JsonNode task : array) {
      if (!task.path("identity").isString()
          || !task.path("endpoint").isString()
          || !task.has("request")) {
        throw new IllegalStateException(
            "An outbox entry's tasks are not a list of { identity, endpoint, request }: "
                + tasks.get());
      }
      decoded.add(
          new Task(
              task.get("identity").asString(),
              task.get("endpoint").asString(),
              task.get("request")));
    }
    if (!array.isArray())
      throw new IllegalStateException("An outbox entry's tasks are not a list: " + tasks.get());
    return List.copyOf(decoded);
  }
}
