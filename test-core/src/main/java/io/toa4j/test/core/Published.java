package io.toa4j.test.core;

import io.toa4j.spi.Message;
import java.util.Map;

/**
 * One event a component announced, as it reached the bus.
 *
 * @param label {@code namespace.name.event}
 * @param id its identity, the same however many times it is published
 * @param payload its payload as plain values (the record's state, or what the event class made)
 * @param version the {@code VERSION} of the record whose write announced it
 */
public record Published(String label, String id, Map<String, Object> payload, long version) {
  /** The event a message on the bus carries. */
  public static Published of(Message message) {
    String version = message.headers().getOrDefault("version", "0");
    return new Published(
        message.label(),
        message.id(),
        Map.copyOf(Values.object(message.body())),
        Long.parseLong(version));
  }

  @Override
  public String toString() {
    return label + " " + id + " " + payload;
  }
}
