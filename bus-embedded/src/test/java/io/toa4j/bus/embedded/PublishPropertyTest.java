package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Bus;
import io.toa4j.tck.time.TestClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class PublishPropertyTest {
  /** However an outbox is re-swept, each queue holds each event once. */
  @Property(tries = 30)
  void publish_anySequenceWithRepeats_eachBoundQueueHoldsEachIdOnce(
      @ForAll @Size(max = 40) List<@IntRange(max = 12) Integer> ids) throws IOException {
    Path dir = Files.createTempDirectory("bus-property");
    try (Bus bus = Fixtures.open(dir, new TestClock(Fixtures.START))) {
      bus.declare("a", Set.of("x.y.created"));
      bus.declare("b", Set.of("x.y.created", "x.y.deleted"));

      for (int id : ids)
        bus.publish(message("e" + id, id % 3 == 0 ? "x.y.deleted" : "x.y.created"));

      Set<Integer> distinct = new HashSet<>(ids);
      assertThat(bus.depth("b")).isEqualTo(distinct.size());
      assertThat(bus.depth("a")).isEqualTo(distinct.stream().filter(id -> id % 3 != 0).count());
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
