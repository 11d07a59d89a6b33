package io.toa4j.cli;

import io.toa4j.api.Reply;
import io.toa4j.runtime.Replies;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;

/**
 * Sends a call to the control channel of a running context. A call that reached the channel is
 * never sent anywhere else: if the answer is lost, the call may have run, and only the caller can
 * decide to repeat it.
 *
 * <p>Plain HTTP/1.1 on the loopback interface through {@link HttpURLConnection}: the JDK's {@code
 * java.net.http} client sets up TLS and its selector threads even for a plain local call, which is
 * most of what a short command would wait for.
 */
final class ChannelClient {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final RunFile running;

  ChannelClient(RunFile running) {
    this.running = running;
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
    byte[] body = Wire.call(call);
    HttpURLConnection http;
    try {
      http =
          (HttpURLConnection)
              URI.create("http://" + ControlChannel.HOST + ":" + running.port() + Wire.PATH)
                  .toURL()
                  .openConnection();
      http.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
      http.setRequestMethod("POST");
      http.setDoOutput(true);
      http.setRequestProperty(Wire.TOKEN_HEADER, running.token());
      http.setRequestProperty("Content-Type", Wire.MEDIA_TYPE);
      http.setFixedLengthStreamingMode(body.length);
      http.connect();
    } catch (IOException e) {
      throw new Unreachable(e);
    }
    try {
      try (OutputStream out = http.getOutputStream()) {
        out.write(body);
      }
      int status = http.getResponseCode();
      try (InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream()) {
        return reply(call, status, in == null ? new byte[0] : in.readAllBytes());
      }
    } catch (IOException e) {
      throw new CliProblem(
          Relay.brokeOff(running.pid(), "the call of " + call.endpoint(), e), Toa.FAILED);
    } finally {
      http.disconnect();
    }
  }

  private Reply reply(Wire.Call call, int status, byte[] body) {
    if (status == 403) {
      throw new CliProblem(
          "toa: the running context (pid "
              + running.pid()
              + ") refused the token in .toa/run.json; restart toa run",
          Toa.FAILED);
    }
    if (status != 200 && status != 400) {
      throw new CliProblem(
          "toa: port "
              + running.port()
              + " answered HTTP "
              + status
              + " to the call of "
              + call.endpoint()
              + ", which is not what toa run's control channel answers; remove .toa/run.json if no toa run serves this context",
          Toa.FAILED);
    }
    try {
      return Replies.read(body);
    } catch (Replies.Malformed e) {
      throw new CliProblem(
          "toa: the running context (pid "
              + running.pid()
              + ") answered something unreadable: "
              + e.getMessage(),
          Toa.FAILED);
    }
  }
}
