package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.MissedHeartbeatException;
import com.rabbitmq.client.impl.DefaultExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the client's connection failures as outages are logged, and handles them as the client's
 * default handler does: a connection given up for missed heartbeats (the link went quiet) is one
 * WARN line without a stack trace; a connection cut otherwise (reset, closed mid-frame) and a try
 * to connect again that finds the broker out of reach (refused, timed out, cut during the
 * handshake) are DEBUG, with their stack traces. The client itself logs these at ERROR with a stack
 * trace, a failed recovery once per try, every second, for as long as a link stays dropped; the
 * parts the lost connection stops log their own outage (see {@code docs/faults.md}). Anything else
 * goes to the default handler. Thread-safe.
 */
final class ConnectionLog extends DefaultExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionLog.class);

  @Override
  public void handleUnexpectedConnectionDriverException(
      Connection connection, Throwable exception) {
    if (exception instanceof MissedHeartbeatException) {
      LOG.warn(
          "RabbitMQ connection '{}' heard nothing from the broker for two heartbeats of {} s: it is closed and"
              + " recovers (a network that dropped the link, or a broker that stopped answering)",
          connection.getClientProvidedName(),
          connection.getHeartbeat());
      return;
    }
    if (Connections.isLost(
        exception)) { // the parts the connection served log the outage: one WARN each
      LOG.debug(
          "RabbitMQ connection '{}' was lost; it recovers",
          connection.getClientProvidedName(),
          exception);
      return;
    }
    super.handleUnexpectedConnectionDriverException(connection, exception);
  }

  @Override
  public void handleConnectionRecoveryException(Connection connection, Throwable exception) {
    if (Connections.isUnreachable(exception)) {
      LOG.debug(
          "RabbitMQ connection '{}' could not recover yet; it tries again",
          connection.getClientProvidedName(),
          exception);
      return;
    }
    super.handleConnectionRecoveryException(connection, exception);
  }
}
