package io.toa4j.testkit.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy's dropped link, between a real client socket and a real server socket on loopback:
 * while silenced nothing crosses, neither bytes nor a close; once healed both arrive.
 */
class TcpProxyTest {
  /** How long a read waits to show that nothing came: the proxy forwards in microseconds. */
  private static final int QUIET_MILLIS = 300;

  private static final int PATIENCE_MILLIS = 10_000;

  private final ServerSocket server = listen();
  private final int port = TcpProxy.freePort();
  private final TcpProxy proxy = TcpProxy.start(port, "127.0.0.1", server.getLocalPort());

  @AfterEach
  void close() throws IOException {
    proxy.close();
    server.close();
  }

  @Test
  void silence_bytesEitherWay_areHeldUntilHeal() throws Exception {
    try (Socket client = connect();
        Socket accepted = server.accept()) {
      proxy.silence();
      client.getOutputStream().write('a');
      accepted.getOutputStream().write('b');

      assertNothingArrives(accepted);
      assertNothingArrives(client);

      proxy.heal();
      assertThat(read(accepted)).isEqualTo('a');
      assertThat(read(client)).isEqualTo('b');
    }
  }

  @Test
  void silence_closeByOneEnd_reachesTheOtherOnlyOnHeal() throws Exception {
    try (Socket client = connect();
        Socket accepted = server.accept()) {
      proxy.silence();
      client.close();

      assertNothingArrives(accepted);

      proxy.heal();
      assertThat(read(accepted)).as("end of stream").isEqualTo(-1);
    }
  }

  @Test
  void silence_newConnection_isAcceptedButReachesTheServerOnlyOnHeal() throws Exception {
    proxy.silence();
    try (Socket client = connect()) {
      client.getOutputStream().write('c');
      server.setSoTimeout(QUIET_MILLIS);
      assertThatThrownBy(server::accept).isInstanceOf(SocketTimeoutException.class);

      proxy.heal();
      server.setSoTimeout(PATIENCE_MILLIS);
      try (Socket accepted = server.accept()) {
        assertThat(read(accepted)).isEqualTo('c');
      }
    }
  }

  private Socket connect() throws IOException {
    Socket client = new Socket(InetAddress.getLoopbackAddress(), port);
    client.setSoTimeout(PATIENCE_MILLIS);
    return client;
  }

  private static int read(Socket socket) throws IOException {
    socket.setSoTimeout(PATIENCE_MILLIS);
    return socket.getInputStream().read();
  }

  private static void assertNothingArrives(Socket socket) throws IOException {
    socket.setSoTimeout(QUIET_MILLIS);
    assertThatThrownBy(() -> socket.getInputStream().read())
        .isInstanceOf(SocketTimeoutException.class);
  }

  private static ServerSocket listen() {
    try {
      return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
