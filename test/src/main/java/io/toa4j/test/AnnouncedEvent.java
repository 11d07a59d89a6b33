package io.toa4j.test;

import io.toa4j.test.core.Published;
import java.util.Map;
import org.assertj.core.api.AssertProvider;

/**
 * One event a component announced, as it reached the bus.
 *
 * @param label {@code namespace.name.event}
 * @param id its identity, the same however many times it is published
 * @param payload its payload as plain values (the record's state, or what the event class made)
 * @param version the {@code VERSION} of the record whose write announced it
 */
public record AnnouncedEvent(String label, String id, Map<String, Object> payload, long version)
    implements AssertProvider<EventAssert> {
  static AnnouncedEvent of(Published event) {
    return new AnnouncedEvent(event.label(), event.id(), event.payload(), event.version());
  }

  @Override
  public EventAssert assertThat() {
    return new EventAssert(this);
  }

  @Override
  public String toString() {
    return label + " " + id + " " + payload;
  }
}
