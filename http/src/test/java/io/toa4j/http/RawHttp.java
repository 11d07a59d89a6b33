package io.toa4j.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * HTTP/1.1 over a bare socket, for requests an HTTP client would refuse to send or would tidy up:
 * the bytes go out as given, the output is shut, and the first final answer is read (interim 1xx
 * answers skipped) until the server closes the connection.
 */
final class RawHttp {
  static final ObjectMapper JSON = new ObjectMapper();

  private RawHttp() {}

  /** A final answer as it came: status, headers (names in lower case), body. */
  record Answer(int status, Map<String, List<String>> headers, byte[] body) {
    Optional<String> header(String name) {
      return headers.getOrDefault(name, List.of()).stream().findFirst();
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (JacksonException e) {
        throw new AssertionError("the body is not JSON: " + text(), e);
      }
    }
  }

  static Answer send(int port, String request) {
    return send(port, request.getBytes(StandardCharsets.ISO_8859_1), request.startsWith("HEAD "));
  }

  /**
   * Sends the bytes and reads the first final answer.
   *
   * @param head whether the request was a HEAD, whose answer has headers only
   */
  static Answer send(int port, byte[] request, boolean head) {
    return send(null, port, request, head);
  }

  /** The same, from a local address of the loopback range, such as 127.0.0.2: another client's. */
  static Answer from(java.net.InetAddress local, int port, String request) {
    return send(
        local, port, request.getBytes(StandardCharsets.ISO_8859_1), request.startsWith("HEAD "));
  }

  private static Answer send(java.net.InetAddress local, int port, byte[] request, boolean head) {
    try (Socket socket =
        local == null
            ? new Socket("127.0.0.1", port)
            : new Socket(java.net.InetAddress.getByName("127.0.0.1"), port, local, 0)) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      try {
        out.write(request);
        out.flush();
        socket.shutdownOutput();
      } catch (SocketException e) {
        // the server answered and closed before taking every byte: its answer is still to be read
      }
      byte[] bytes = readAll(socket.getInputStream());
      return parse(bytes, head);
    } catch (IOException e) {
      throw new UncheckedIOException("no answer from 127.0.0.1:" + port, e);
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) all.write(buffer, 0, n);
    } catch (SocketException e) {
      if (all.size() == 0) throw e; // a reset after the answer loses nothing that was read
    }
    return all.toByteArray();
  }

  static Answer parse(byte[] bytes, boolean head) {
    int at = 0;
    while (true) {
      int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), at);
      if (end < 0)
        throw new AssertionError(
            "no complete answer in: " + new String(bytes, StandardCharsets.ISO_8859_1));
      String[] lines = new String(bytes, at, end - at, StandardCharsets.ISO_8859_1).split("\r\n");
      String[] statusLine = lines[0].split(" ", 3);
      if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1."))
        throw new AssertionError("not a status line: " + lines[0]);
      int status = Integer.parseInt(statusLine[1]);
      Map<String, List<String>> headers = new LinkedHashMap<>();
      for (String line : Arrays.copyOfRange(lines, 1, lines.length)) {
        int colon = line.indexOf(':');
        headers
            .computeIfAbsent(
                line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
            .add(line.substring(colon + 1).trim());
      }
      at = end + 4;
      if (status >= 100 && status < 200) continue;
      byte[] body;
      if (head || status == 204 || status == 304) {
        body = new byte[0];
      } else if (headers.containsKey("content-length")) {
        int length = Integer.parseInt(headers.get("content-length").get(0));
        body = Arrays.copyOfRange(bytes, at, at + length);
      } else if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
        body = unchunk(bytes, at);
      } else {
        body = Arrays.copyOfRange(bytes, at, bytes.length);
      }
      return new Answer(status, headers, body);
    }
  }

  private static byte[] unchunk(byte[] bytes, int at) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      int eol = indexOf(bytes, new byte[] {'\r', '\n'}, at);
      int size =
          Integer.parseInt(
              new String(bytes, at, eol - at, StandardCharsets.ISO_8859_1).split(";")[0].trim(),
              16);
      if (size == 0) return body.toByteArray();
      body.write(bytes, eol + 2, size);
      at = eol + 2 + size + 2;
    }
  }

  private static int indexOf(byte[] bytes, byte[] what, int from) {
    outer:
    for (int i = from; i <= bytes.length - what.length; i++) {
      for (int j = 0; j < what.length; j++) if (bytes[i + j] != what[j]) continue outer;
      return i;
    }
    return -1;
  }
}
