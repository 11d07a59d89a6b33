package io.toa4j.test;

import java.util.List;
import java.util.stream.Collectors;
import org.assertj.core.api.AssertProvider;

/**
 * The events a context announced so far, each once, in the order they first reached the bus: an
 * event published twice (a sweep that published it again after a crash) has one identity, and is
 * one event here. Every event of every component is announced under test, consumed or not.
 *
 * @param events the events, oldest first
 */
public record Announced(List<AnnouncedEvent> events) implements AssertProvider<AnnouncedAssert> {
  public Announced {
    events = List.copyOf(events);
  }

  /** Those with this label, {@code namespace.name.event}. */
  public Announced of(String label) {
    return new Announced(events.stream().filter(e -> e.label().equals(label)).toList());
  }

  /**
   * The only event with this label.
   *
   * @throws AssertionError when there is none, or more than one, naming those there are
   */
  public AnnouncedEvent only(String label) {
    List<AnnouncedEvent> matching = of(label).events();
    if (matching.size() != 1) {
      throw new AssertionError(
          "Expected one event "
              + label
              + " to be announced, but "
              + matching.size()
              + " were; announced: "
              + this);
    }
    return matching.get(0);
  }

  public int size() {
    return events.size();
  }

  @Override
  public AnnouncedAssert assertThat() {
    return new AnnouncedAssert(this);
  }

  @Override
  public String toString() {
    if (events.isEmpty()) return "nothing";
    return events.stream().map(AnnouncedEvent::toString).collect(Collectors.joining("; "));
  }
}
