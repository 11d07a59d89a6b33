package io.toa4j.test;

import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions on the events a context {@link Announced}. */
public final class AnnouncedAssert extends AbstractAssert<AnnouncedAssert, Announced> {
  AnnouncedAssert(Announced actual) {
    super(actual, AnnouncedAssert.class);
  }

  /** Verifies that events with this label were announced exactly {@code times} times. */
  public AnnouncedAssert announced(String label, int times) {
    isNotNull();
    int n = actual.of(label).size();
    if (n != times)
      failWithMessage(
          "Expected %s to be announced %s time(s), but it was %s time(s); announced: %s",
          label, times, n, actual);
    return myself;
  }

  /** Verifies that no event with this label was announced. */
  public AnnouncedAssert didNotAnnounce(String label) {
    return announced(label, 0);
  }

  /** Verifies that nothing at all was announced. */
  public AnnouncedAssert announcedNothing() {
    isNotNull();
    if (actual.size() > 0) failWithMessage("Expected nothing to be announced, but %s was", actual);
    return myself;
  }

  /** Verifies the labels of the events announced, in the order they were announced. */
  public AnnouncedAssert announcedExactly(String... labels) {
    isNotNull();
    List<String> actualLabels = actual.events().stream().map(AnnouncedEvent::label).toList();
    if (!actualLabels.equals(Arrays.asList(labels))) {
      failWithMessage(
          "Expected the events announced to be %s, but they were %s",
          Arrays.asList(labels), actualLabels);
    }
    return myself;
  }

  /** Assertions on the only event with this label; fails when there is none, or more than one. */
  public EventAssert only(String label) {
    isNotNull();
    return actual.only(label).assertThat();
  }
}
