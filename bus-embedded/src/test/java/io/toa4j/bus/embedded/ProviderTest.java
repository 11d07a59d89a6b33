package io.toa4j.bus.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding the bus, opening it with options, and the file it keeps. */
class ProviderTest {
  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void serviceLoader_embedded_opensABusInTheStateFolder() {
    BusProvider provider =
        ServiceLoader.load(BusProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals("embedded"))
            .findFirst()
            .orElseThrow();
    Path state = dir.resolve("app/.toa");

    try (Bus bus = provider.open(new BusSettings(state, Map.of(), clock))) {
      assertThat(bus.describe()).contains(state.resolve("bus.db").toString());
    }
    assertThat(state.resolve("bus.db")).exists();
  }

  @Test
  void capabilities_notDistributed_handsFirstUnlessItsHandOffWaitIsZero() {
    assertThat(new EmbeddedBusProvider().capabilities()).as("known without opening one").isEmpty();
    try (Bus bus = Fixtures.open(dir, clock)) {
      assertThat(bus.capabilities()).containsExactly(Bus.Capability.HANDS_FIRST);
      assertThat(bus.calls()).as("calls, in memory").isPresent();
      assertThat(bus.parking()).as("parked messages").isPresent();
    }
    try (Bus bus = Fixtures.open(dir, clock, Map.of("hand-off-wait-ms", "0"))) {
      assertThat(bus.capabilities()).as("every event stored before a handler sees it").isEmpty();
    }
  }

  @Test
  void open_newFile_isWalWithSchemaVersionRecorded() throws Exception {
    Fixtures.open(dir, clock).close();

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("bus.db"));
        Statement s = c.createStatement()) {
      assertThat(Schema.version(s)).isEqualTo(Schema.latest());
      try (ResultSet r = s.executeQuery("PRAGMA journal_mode")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).isEqualToIgnoringCase("wal");
      }
    }
    Fixtures.open(dir, clock).close(); // a second open finds nothing to do
  }

  @Test
  void open_fileFromNewerToa4j_failsSayingSo() throws Exception {
    Files.createDirectories(dir);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("bus.db"));
        Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = " + (Schema.latest() + 1));
    }

    assertThatThrownBy(() -> Fixtures.open(dir, clock))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("newer than this toa4j knows")
        .hasMessageContaining("bus.db");
  }

  @Test
  void tuning_noOptions_isTheDefault() {
    assertThat(Tuning.from(Map.of())).isEqualTo(Tuning.DEFAULT);
  }

  @Test
  void tuning_options_overrideTheDefaults() {
    Tuning tuning =
        Tuning.from(
            Map.of(
                Tuning.POLL_INTERVAL, "20",
                Tuning.MAX_IN_FLIGHT, "4",
                Tuning.CLOSE_TIMEOUT, "0",
                Tuning.BUSY_TIMEOUT, "500",
                Tuning.HAND_OFF_WAIT, "0"));

    assertThat(tuning)
        .isEqualTo(
            new Tuning(
                Duration.ofMillis(20), 4, Duration.ZERO, Duration.ofMillis(500), Duration.ZERO));
  }

  @Test
  void tuning_unknownOption_failsNamingItAndTheKnownOnes() {
    assertThatThrownBy(() -> Tuning.from(Map.of("max-inflight", "4")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max-inflight")
        .hasMessageContaining(Tuning.MAX_IN_FLIGHT);
  }

  @Test
  void tuning_badValue_failsNamingTheOptionAndTheRange() {
    assertThatThrownBy(() -> Tuning.from(Map.of(Tuning.MAX_IN_FLIGHT, "0")))
        .hasMessageContaining(Tuning.MAX_IN_FLIGHT)
        .hasMessageContaining("from 1 to 1024");
    assertThatThrownBy(() -> Tuning.from(Map.of(Tuning.POLL_INTERVAL, "soon")))
        .hasMessageContaining("'soon'");
  }
}
