package io.toa4j.http;

import static io.toa4j.http.ProblemBodies.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The answers Jetty makes when no handler answers or the handler throws, on a real Jetty with the
 * gateway's error handler: problem bodies, for every method, with nothing of the exception.
 */
class JettyErrorsTest {
  Server server;
  ServerConnector connector;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            if (request.getHttpURI().getPath().startsWith("/throws"))
              throw new IllegalStateException("secret internals of io.toa4j.Thing");
            return false; // nobody answers: Jetty's own 404
          }
        });
    server.setErrorHandler(new JettyErrors(8192));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  @Test
  void noHandlerAnswers_isJettysOwn404_asAProblem_forEveryMethod() {
    for (String method : List.of("GET", "POST", "PUT", "DELETE", "OPTIONS")) {
      RawHttp.Answer answer =
          RawHttp.send(
              connector.getLocalPort(),
              method + " /anything HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n");
      assertThat(assertProblem(404, answer).path("code").asText())
          .as(method)
          .isEqualTo("NOT_FOUND");
    }
    RawHttp.Answer head =
        RawHttp.send(connector.getLocalPort(), "HEAD /anything HTTP/1.1\r\nhost: x\r\n\r\n");
    assertThat(head.status()).isEqualTo(404);
    assertThat(head.header("content-type")).contains(Problems.MEDIA_TYPE);
  }

  @Test
  void handlerThrows_is500Problem_withoutTheExceptionsText() {
    RawHttp.Answer answer =
        RawHttp.send(connector.getLocalPort(), "GET /throws HTTP/1.1\r\nhost: x\r\n\r\n");

    assertThat(assertProblem(500, answer).path("detail").asText())
        .doesNotContain("secret", "IllegalState");
  }
}
