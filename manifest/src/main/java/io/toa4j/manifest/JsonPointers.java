package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** JSON pointers (RFC 6901): {@code ""} is the whole value, {@code /a/0} its a's first item. */
final class JsonPointers {
  private JsonPointers() {}

  /** The unescaped segments of a pointer; none for {@code ""}. */
  static List<String> segments(String pointer) {
    List<String> segments = new ArrayList<>();
    if (pointer.isEmpty()) {
      return segments;
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      segments.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return segments;
  }

  /** The pointer to {@code key} under {@code parent}. */
  static String append(String parent, String key) {
    return parent + "/" + key.replace("~", "~0").replace("/", "~1");
  }

  /** The position of every node of the value in document order (pre-order), by pointer. */
  static Map<String, Integer> documentOrder(JsonNode value) {
    Map<String, Integer> order = new HashMap<>();
    number(value, "", order);
    return order;
  }

  private static void number(JsonNode node, String pointer, Map<String, Integer> order) {
    order.put(pointer, order.size());
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> property : node.properties()) {
        number(property.getValue(), append(pointer, property.getKey()), order);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        number(node.get(i), pointer + "/" + i, order);
      }
    }
  }
}
