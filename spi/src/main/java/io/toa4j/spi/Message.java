package io.toa4j.spi;

import java.util.Map;
import java.util.Objects;

/**
 * A message on the bus: an event, a task, or a call and its answer.
 *
 * @param id the message's identity: the same however many times it is published, sent or delivered
 *     (an event's derives from its outbox entry; a task's and a call's are the call's identity)
 * @param label what it is: {@code namespace.name.event} for an event, {@code
 *     namespace.name.operation} for a task or a call
 * @param body the payload as JSON
 * @param headers small string facts that travel with it, such as the record's {@code VERSION}
 */
public record Message(String id, String label, Json body, Map<String, String> headers) {
  public Message {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
  }
}
