package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import io.toa4j.testkit.time.TestClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/** Opening buses and making messages the way the runtime does; reading the file behind a bus. */
final class Fixtures {
  static final long START = 1_700_000_000_000L;

  private Fixtures() {}

  static Bus open(Path dir, TestClock clock) {
    return open(dir, clock, Map.of());
  }

  static Bus open(Path dir, TestClock clock, Map<String, String> options) {
    return new EmbeddedBusProvider().open(new BusSettings(dir, options, clock));
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
}
