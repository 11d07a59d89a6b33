package io.toa4j.http;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty makes itself, before a request reaches the gateway's handler (a request line, a
 * header or a target it cannot read, a version it does not serve, a request line or headers over
 * its limits) or after the handler failed: the gateway's problem body, like every other refusal,
 * for every method ({@code HEAD} answers the same headers without it). Jetty's own reason is kept
 * in the detail when it is a reason ("No Host", "Unknown Version"), never an exception's text.
 * Stateless.
 */
final class JettyErrors implements Request.Handler {
  private final int requestHeaderSize;

  /**
   * @param requestHeaderSize the largest request line and headers Jetty reads, in bytes
   */
  JettyErrors(int requestHeaderSize) {
    this.requestHeaderSize = requestHeaderSize;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    String message =
        request.getAttribute(ErrorHandler.ERROR_MESSAGE) instanceof String m ? m : null;
    Throwable cause =
        request.getAttribute(ErrorHandler.ERROR_EXCEPTION) instanceof Throwable t ? t : null;
    if (cause instanceof HttpException http) {
      status = http.getCode();
      if (message == null) message = http.getReason();
    }
    if (status < 400) status = 500;
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    if (HttpStatus.hasNoBody(status)) {
      callback.succeeded();
      return true;
    }
    String reason = reason(status, message);
    Problems.send(response, callback, status, code(status), detail(status, reason));
    return true;
  }

  /** Jetty's reason, when it says more than the status's phrase and nothing of the internals. */
  private static String reason(int status, String message) {
    if (message == null || message.isBlank() || message.length() > 200) return "";
    if (message.equalsIgnoreCase(HttpStatus.getMessage(status))
        || message.equals(Integer.toString(status))) return "";
    return Problems.showsInternals(message) ? "" : message;
  }

  private static String code(int status) {
    return switch (status) {
      case 400 -> "MALFORMED";
      case 404 -> "NOT_FOUND";
      case 405 -> "METHOD_NOT_ALLOWED";
      case 413 -> "TOO_LARGE";
      case 414 -> "URI_TOO_LONG";
      case 431 -> "HEADERS_TOO_LARGE";
      case 426, 505 -> "HTTP_VERSION";
      default ->
          status >= 500
              ? "SYSTEM"
              : HttpStatus.getMessage(status)
                  .toUpperCase(java.util.Locale.ROOT)
                  .replaceAll("[^A-Z0-9]+", "_");
    };
  }

  private String detail(int status, String reason) {
    String why = reason.isEmpty() ? "" : " (" + reason + ")";
    return switch (status) {
      case 400 ->
          "the request is not valid HTTP/1.1"
              + why
              + "; check the request line, the headers (a host header is required) and the target's percent-escapes, which must decode to UTF-8";
      case 404 -> "nothing is served at this path" + why;
      case 413 -> "the request is larger than the gateway reads" + why;
      case 414 ->
          "the request line is longer than the gateway reads ("
              + requestHeaderSize
              + " bytes with the headers); shorten the path or the query";
      case 431 ->
          "the headers are larger than the gateway reads ("
              + requestHeaderSize
              + " bytes with the request line); send fewer or shorter headers";
      case 426, 505 -> "this HTTP version is not served" + why + "; send HTTP/1.1 or HTTP/1.0";
      default ->
          status >= 500
              ? "the request failed inside the gateway; it is logged"
              : "the request is refused" + why;
    };
  }
}
