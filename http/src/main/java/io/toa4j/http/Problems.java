package io.toa4j.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The one body of every answer that is not a success: an RFC 9457 problem, {@code
 * application/problem+json}, with {@code type} ({@code about:blank}), {@code title} (the status's
 * phrase), {@code status}, {@code detail} (what is wrong and what to do) and the gateway's stable
 * {@code code}; an operation's refusal adds its {@code cause}. Always JSON, whatever {@code accept}
 * asks for: RFC 9457 defines no YAML form, and a client that cannot read the answer to its request
 * can still read why. Stateless.
 */
final class Problems {
  static final String MEDIA_TYPE = "application/problem+json";
  static final String TYPE = "about:blank";

  /** What a detail must never show: a Java type, a stack's frame, a parser's location dump. */
  private static final Pattern INTERNALS =
      Pattern.compile(
          "\\[Source:|reference chain|Exception|\\$[A-Z]|\\bjava\\.|\\bio\\.toa4j\\.|\\borg\\.eclipse\\.|\\bcom\\.fasterxml\\.|\\btools\\.jackson\\.|DeserializationFeature|JsonToken");

  private Problems() {}

  /** The problem's members in order, {@code extra} after the standard ones. */
  static Map<String, Object> body(
      int status, String code, String detail, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", TYPE);
    body.put("title", title(status));
    body.put("status", status);
    body.put("detail", detail);
    body.put("code", code);
    body.putAll(extra);
    return body;
  }

  /** Writes the problem as the whole answer, with its status. */
  static void send(
      Response response,
      Callback callback,
      int status,
      String code,
      String detail,
      Map<String, Object> extra) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, MEDIA_TYPE);
    Content.Sink.write(
        response, true, Media.JSON.write(body(status, code, detail, extra)), callback);
  }

  static void send(Response response, Callback callback, int status, String code, String detail) {
    send(response, callback, status, code, detail, Map.of());
  }

  /** The status's phrase, {@code Unprocessable Content} for 422 as RFC 9110 names it. */
  static String title(int status) {
    return switch (status) {
      case 413 -> "Content Too Large";
      case 422 -> "Unprocessable Content";
      default -> HttpStatus.getMessage(status);
    };
  }

  /** Whether a text shows something of the implementation that a client has no use for. */
  static boolean showsInternals(String text) {
    return INTERNALS.matcher(text).find();
  }
}
