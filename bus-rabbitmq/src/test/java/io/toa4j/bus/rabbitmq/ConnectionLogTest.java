package io.toa4j.bus.rabbitmq;

import static io.toa4j.testkit.servers.Server.RABBITMQ;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.toa4j.testkit.logs.CapturedLog;
import io.toa4j.testkit.servers.Needs;
import java.io.EOFException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

/**
 * What the client's connection failures become in the log (slf4j-simple at INFO, as the command
 * line runs): a cut connection says nothing at INFO, the parts it served log the outage; a failure
 * that is no outage still goes out as the client logs it, at ERROR with its stack trace.
 */
@Needs(RABBITMQ)
class ConnectionLogTest {
  @Test
  void aConnectionCut_isDebugOnly_andAnotherDriverFailure_isAnErrorWithItsStackTrace()
      throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(RABBITMQ.url());
    try (Connection connection = factory.newConnection("toa4j test connection log");
        CapturedLog log = CapturedLog.start()) {
      ConnectionLog handler = new ConnectionLog();
      handler.handleUnexpectedConnectionDriverException(
          connection, new SocketException("Connection reset"));
      handler.handleUnexpectedConnectionDriverException(connection, new EOFException());
      assertThat(log.lines())
          .as("a connection cut: the client recovers it, and the parts it served log their outage")
          .isEmpty();

      handler.handleUnexpectedConnectionDriverException(
          connection, new IllegalStateException("a frame the client cannot read"));
      assertThat(log.lines(" ERROR ", "An unexpected connection driver error occurred")).hasSize(1);
      assertThat(log.lines("IllegalStateException: a frame the client cannot read")).hasSize(1);
      assertThat(log.stackTraces()).isNotEmpty();
    }
  }
}
