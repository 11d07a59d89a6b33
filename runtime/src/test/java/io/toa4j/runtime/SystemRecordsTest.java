package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records the parts around the runtime keep on a context's storage, reached through {@link
 * Admin#records}: created once, replaced by compare-and-swap, and never the runtime's own.
 */
class SystemRecordsTest {
  @TempDir Path directory;

  @Test
  void aRecord_isCreatedOnce_andReplacedOnlyFromItsCurrentVersion() {
    Contexts.orders(directory);
    try (Toa app = Toa.builder().directory(directory).connect()) {
      SystemRecords records = app.admin().records("gadgets");

      assertThat(records.create("g1", "{\"n\":1}")).isTrue();
      assertThat(records.create("g1", "{\"n\":2}")).as("the id is taken").isFalse();
      SystemRecords.Record first = records.read("g1").orElseThrow();
      assertThat(first.version()).isEqualTo(1);
      assertThat(first.json()).isEqualTo("{\"n\":1}");

      assertThat(records.replace(first, "{\"n\":3}")).isTrue();
      assertThat(records.replace(first, "{\"n\":4}")).as("it moved on since").isFalse();
      SystemRecords.Record second = records.read("g1").orElseThrow();
      assertThat(second.version()).isEqualTo(2);
      assertThat(second.json()).isEqualTo("{\"n\":3}");
      assertThat(second.created()).isEqualTo(first.created());
      assertThat(records.read("g2")).isEmpty();
    }
    try (Toa again = Toa.builder().directory(directory).connect()) {
      assertThat(again.admin().records("gadgets").read("g1").orElseThrow().json())
          .as("kept on the context's storage")
          .isEqualTo("{\"n\":3}");
    }
  }

  @Test
  void theRuntimesOwnRecords_andNamesThatAreNone_areRefused() {
    Contexts.orders(directory);
    try (Toa app = Toa.builder().directory(directory).connect()) {
      for (String own : new String[] {"messages", "attempts"}) {
        assertThatThrownBy(() -> app.admin().records(own))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("system." + own + " holds the runtime's own records");
      }
      assertThatThrownBy(() -> app.admin().records("Not-a-name"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not a system store name");
    }
  }
}
