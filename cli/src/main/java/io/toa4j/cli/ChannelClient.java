package io.toa4j.cli;

import io.toa4j.api.Reply;
import io.toa4j.runtime.Replies;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends a call to the control channel of a running context. A call that reached the channel is
 * never sent anywhere else: if the answer is lost, the call may have run, and only the caller can
 * decide to repeat it.
 */
final class ChannelClient {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final RunFile running;
  private final HttpClient http;

  ChannelClient(RunFile running) {
    this.running = running;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
  }

  /** The channel accepted no connection, so nothing was sent. */
  static final class Unreachable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreachable(IOException cause) {
      super(cause.toString(), cause);
    }
  }

  /**
   * Sends the call and answers the running context's reply.
   *
   * @throws Unreachable when no connection could be made: the call was not sent
   * @throws io.toa4j.api.Failure when the call failed in the running context
   * @throws CliProblem when the exchange broke off after the call was sent, or the answer is not
   *     the channel's
   */
  Reply call(Wire.Call call) throws Unreachable {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + ControlChannel.HOST + ":" + running.port() + Wire.PATH))
            .header(Wire.TOKEN_HEADER, running.token())
            .header("Content-Type", Wire.MEDIA_TYPE)
            .POST(HttpRequest.BodyPublishers.ofByteArray(Wire.call(call)))
            .build();
    HttpResponse<byte[]> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new Unreachable(e);
    } catch (IOException e) {
      throw new CliProblem(
          "toa: the running context (pid " + running.pid() + ") broke off the call of " + call.endpoint() + " (" + e
              + "); it may or may not have run: observe the record before calling again",
          Toa.FAILED);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliProblem("toa: interrupted while waiting for the running context (pid " + running.pid() + ")", Toa.FAILED);
    }
    return reply(call, response);
  }

  private Reply reply(Wire.Call call, HttpResponse<byte[]> response) {
    int status = response.statusCode();
    if (status == 403) {
      throw new CliProblem(
          "toa: the running context (pid " + running.pid() + ") refused the token in .toa/run.json; restart toa run", Toa.FAILED);
    }
    if (status != 200 && status != 400) {
      throw new CliProblem(
          "toa: port " + running.port() + " answered HTTP " + status + " to the call of " + call.endpoint()
              + ", which is not what toa run's control channel answers; remove .toa/run.json if no toa run serves this context",
          Toa.FAILED);
    }
    try {
      return Replies.read(response.body());
    } catch (Replies.Malformed e) {
      throw new CliProblem("toa: the running context (pid " + running.pid() + ") answered something unreadable: " + e.getMessage(), Toa.FAILED);
    }
  }
}
