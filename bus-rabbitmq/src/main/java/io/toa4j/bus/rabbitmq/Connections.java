package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

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

  /**
   * Whether connecting failed because the broker is out of reach for now (nothing listens, the
   * connection was cut or timed out, the broker is starting or stopping) rather than because it
   * refused us (credentials, virtual host) or the URL is wrong.
   */
  static boolean isUnreachable(Throwable t) {
    for (Throwable at = t; at != null; at = at.getCause()) {
      if (at instanceof com.rabbitmq.client.AuthenticationFailureException
          || at instanceof com.rabbitmq.client.PossibleAuthenticationFailureException) {
        return false;
      }
      if (at instanceof java.net.ConnectException
          || at instanceof java.net.NoRouteToHostException
          || at instanceof java.net.SocketTimeoutException
          || at instanceof java.io.EOFException
          || at instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the failure is the loss of a connection, not of one channel: the broker went away or
   * closed the connection, or the network failed; automatic recovery brings it back. A confirm not
   * received in time ({@link TimeoutException}) is not: it says the message is not confirmed, and
   * nothing of the connection.
   */
  static boolean isLost(Throwable t) {
    if (t instanceof TimeoutException) return false;
    if (isUnreachable(t)) return true;
    for (Throwable at = t; at != null; at = at.getCause()) {
      if (at instanceof com.rabbitmq.client.ShutdownSignalException s)
        return s.isHardError() && !s.isInitiatedByApplication();
      if (at instanceof java.net.SocketException) return true;
    }
    return false;
  }

  static void abort(Connection connection) {
    if (connection != null) connection.abort(1_000);
  }
}
