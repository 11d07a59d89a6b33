package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Connection;
import java.io.IOException;

/** Closing connections without caring whether they are still open. */
final class Connections {
  private Connections() {}

  static void closeQuietly(Connection connection) {
    if (connection == null) return;
    try {
      connection.close(5_000);
    } catch (IOException | RuntimeException e) {
      // closed already, or the broker is gone: nothing is left to release
    }
  }

  static void abort(Connection connection) {
    if (connection != null) connection.abort(1_000);
  }
}
