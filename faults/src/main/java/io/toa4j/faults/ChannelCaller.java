package io.toa4j.faults;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.runtime.Replies;
import io.toa4j.runtime.Requests;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls a {@code toa run} on the embedded engine through its control channel, as {@code toa call}
 * does: {@code POST /call} on 127.0.0.1 with the token of {@code .toa/run.json}, read again for
 * each call, since a restarted process writes a new one (docs/processes.md describes the wire
 * format).
 */
final class ChannelCaller implements Caller {
  private static final Pattern PORT = Pattern.compile("\"port\"\\s*:\\s*(\\d+)");
  private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

  private final Path runFile;

  ChannelCaller(Path context) {
    this.runFile = context.resolve(".toa").resolve("run.json");
  }

  @Override
  public String call(String endpoint, Request request, String identity) throws Unanswered {
    String run;
    try {
      run = Files.readString(runFile);
    } catch (IOException e) {
      throw new Unanswered("no " + runFile + ": no process serves the context", e);
    }
    Matcher port = PORT.matcher(run);
    Matcher token = TOKEN.matcher(run);
    if (!port.find() || !token.find()) throw new Unanswered(runFile + " is being written", null);
    ObjectNode body = JSON.createObjectNode();
    body.put("endpoint", endpoint);
    body.set("request", Requests.tree(request));
    body.put("identity", identity);
    try {
      return Caller.text(
          Replies.read(
              post(Integer.parseInt(port.group(1)), token.group(1), JSON.writeValueAsBytes(body))));
    } catch (IOException | Replies.Malformed e) {
      throw new Unanswered("the channel on port " + port.group(1) + ": " + e, e);
    } catch (Failure e) {
      throw new Unanswered(e.code() + ": " + e.getMessage(), e);
    }
  }

  private static byte[] post(int port, String token, byte[] body) throws IOException {
    HttpURLConnection http =
        (HttpURLConnection)
            URI.create("http://127.0.0.1:" + port + "/call").toURL().openConnection();
    try {
      http.setConnectTimeout(2_000);
      http.setReadTimeout(30_000);
      http.setRequestMethod("POST");
      http.setDoOutput(true);
      http.setRequestProperty("X-Toa-Token", token);
      http.setRequestProperty("Content-Type", "application/json");
      http.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = http.getOutputStream()) {
        out.write(body);
      }
      int status = http.getResponseCode();
      if (status == 403)
        throw new IOException("the token was refused: a new process took the run file's place");
      try (InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream()) {
        return in == null ? new byte[0] : in.readAllBytes();
      }
    } finally {
      http.disconnect();
    }
  }

  @Override
  public void close() {
    // nothing held between calls
  }
}
