package io.toa4j.test;

import java.time.Instant;
import java.util.Map;

/** Assertions on a {@link RecordView}: its properties, its version, whether it exists. */
public final class RecordAssert extends PropertiesAssert<RecordAssert, RecordView> {
  RecordAssert(RecordView actual) {
    super(actual, RecordAssert.class);
  }

  @Override
  protected Map<String, Object> properties() {
    exists();
    return actual.properties();
  }

  @Override
  protected String what() {
    return "record " + actual.component() + " " + actual.id();
  }

  /** Verifies that the record was written. */
  public RecordAssert exists() {
    isNotNull();
    if (!actual.exists()) failWithMessage("Expected %s to exist, but it was never written", what());
    return myself;
  }

  /** Verifies that the record was never written. */
  public RecordAssert doesNotExist() {
    isNotNull();
    if (actual.exists())
      failWithMessage(
          "Expected %s not to exist, but it is at VERSION %s: %s",
          what(), actual.version(), actual.stored().get().state().text());
    return myself;
  }

  /** Verifies its {@code VERSION}: how many writes were committed to it. */
  public RecordAssert hasVersion(long version) {
    exists();
    if (actual.version() != version) {
      failWithMessage(
          "Expected %s to be at VERSION %s, but it is at VERSION %s: %s",
          what(), version, actual.version(), actual.stored().get().state().text());
    }
    return myself;
  }

  /** Verifies when it was last written, by the test clock. */
  public RecordAssert wasUpdatedAt(Instant at) {
    exists();
    if (!actual.updated().orElseThrow().equals(at))
      failWithMessage(
          "Expected %s to be updated at %s, but it was at %s", what(), at, actual.updated().get());
    return myself;
  }
}
