package io.toa4j.bus.embedded;

import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Opening buses and making messages the way the runtime does; reading the file behind a bus. */
final class Fixtures {
  static final long START = 1_700_000_000_000L;

  private Fixtures() {}

  static EmbeddedBus open(Path dir, TestClock clock) {
    return open(dir, clock, Map.of());
  }

  /** The embedded bus itself, with every role of it at hand. */
  static EmbeddedBus open(Path dir, TestClock clock, Map<String, String> options) {
    return (EmbeddedBus) new EmbeddedBusProvider().open(new BusSettings(dir, options, clock));
  }

  static Message message(String id, String label) {
    return new Message(
        id, label, new io.toa4j.spi.Json("{\"id\":\"" + id + "\"}"), Map.of("VERSION", "1"));
  }

  /** A column of a message's row, read straight from the file as another process would. */
  static long column(Path dir, String queue, String messageId, String column) {
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedBus.FILE));
        PreparedStatement s =
            c.prepareStatement(
                "SELECT " + column + " FROM message WHERE queue = ? AND message_id = ?")) {
      s.setString(1, queue);
      s.setString(2, messageId);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) throw new AssertionError("no row for " + messageId + " in " + queue);
        return r.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * How many rows the queue holds in the file, pending, claimed or parked, as another process sees
   * it.
   */
  static long rows(Path dir, String queue) {
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedBus.FILE));
        PreparedStatement s = c.prepareStatement("SELECT count(*) FROM message WHERE queue = ?")) {
      s.setString(1, queue);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits for the latch at most a minute; an interrupt (a closing bus giving up) ends the wait. */
  static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * What a new bus on the file, consuming the queue until it is empty, is handed: each message's id
   * and attempt, as "id attempt".
   */
  static List<String> handledByANewBus(Path dir, TestClock clock, String queue) {
    try (EmbeddedBus bus = (EmbeddedBus) open(dir, clock)) {
      Recorder recorder = new Recorder();
      bus.consume(queue, recorder);
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> bus.depth(queue) == 0);
      return recorder.deliveries().stream().map(d -> d.message().id() + " " + d.attempt()).toList();
    }
  }
}
