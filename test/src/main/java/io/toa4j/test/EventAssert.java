package io.toa4j.test;

import java.util.Map;

/**
 * Assertions on one {@link AnnouncedEvent}: its payload's properties, the version that announced
 * it.
 */
public final class EventAssert extends PropertiesAssert<EventAssert, AnnouncedEvent> {
  EventAssert(AnnouncedEvent actual) {
    super(actual, EventAssert.class);
  }

  @Override
  protected Map<String, Object> properties() {
    return actual.payload();
  }

  @Override
  protected String what() {
    return "event " + actual.label() + " " + actual.id();
  }

  /** Verifies the {@code VERSION} of the record whose write announced it. */
  public EventAssert wasAnnouncedAtVersion(long version) {
    isNotNull();
    if (actual.version() != version)
      failWithMessage(
          "Expected %s to be announced at VERSION %s, but it was at VERSION %s",
          what(), version, actual.version());
    return myself;
  }
}
