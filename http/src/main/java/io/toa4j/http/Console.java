package io.toa4j.http;

import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The operator console under {@value #ROOT}: a page of plain HTML, CSS and JavaScript from the jar,
 * and the JSON it polls and posts to, for an identity holding the operator role.
 *
 * <ul>
 *   <li>{@code GET /.toa/console/} and its two assets are the page's code, the same for everyone
 *       and holding no data: open, so a browser can load the login form. They forbid framing and
 *       any script or style from elsewhere ({@code content-security-policy}).
 *   <li>{@code GET /.toa/console/state}: the document of {@link ConsoleState}.
 *   <li>{@code POST /.toa/console/replay?id=<parked id>} or {@code ?all=true}: puts parked messages
 *       back on their queues ({@link io.toa4j.runtime.Admin#replay}).
 *   <li>{@code POST /.toa/console/redeliver?id=<outbox entry id>}: delivers an outbox entry again
 *       ({@link io.toa4j.runtime.Admin#redeliver}).
 * </ul>
 *
 * <p>Each endpoint with data or an action checks the credentials and the role itself, as a route
 * with {@code auth:role} does: 401 without credentials, 403 without the role. An action must also
 * carry the header {@value #HEADER}: a page of another site can make a browser send a form's POST
 * with the credentials the browser holds for this address (Basic ones it remembers), but not a
 * request with a header of its own, which needs a CORS preflight this gateway never grants.
 * Thread-safe.
 */
final class Console {
  static final String ROOT = "/.toa/console/";
  static final String STATE = ROOT + "state";
  static final String REPLAY = ROOT + "replay";
  static final String REDELIVER = ROOT + "redeliver";

  /**
   * The header every action must carry, which the console's page sends and a cross-site form
   * cannot.
   */
  static final String HEADER = "toa-console";

  private static final String POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none';"
          + " frame-ancestors 'none'";

  private record Asset(String type, byte[] bytes) {}

  private final Toa application;
  private final Access access;
  private final Route.Directives operators;
  private final Map<String, Asset> assets;

  Console(Toa application, Access access, String role) {
    this.application = application;
    this.access = access;
    this.operators = Route.Directives.roles(List.of(role));
    this.assets =
        Map.of(
            ROOT,
            asset("index.html", "text/html"),
            ROOT + "console.js",
            asset("console.js", "text/javascript"),
            ROOT + "console.css",
            asset("console.css", "text/css"));
  }

  /** Answers a request whose path starts with {@value #ROOT}. */
  void answer(Request request, Response response, Callback callback, String path) {
    Asset asset = assets.get(path);
    if (asset != null) {
      only(request, response, path, "GET", "HEAD");
      headers(response);
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.type() + "; charset=utf-8");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      response.write(true, ByteBuffer.wrap(asset.bytes()), callback);
      return;
    }
    if (path.equals(STATE)) {
      only(request, response, path, "GET", "HEAD");
      access.admit(request, response, path, operators, Map.of());
      send(response, callback, ConsoleState.of(application));
      return;
    }
    if (!path.equals(REPLAY) && !path.equals(REDELIVER)) {
      throw new Problem(404, "NOT_FOUND", "no route " + path + "; the console is at " + ROOT);
    }
    only(request, response, path, "POST");
    access.admit(request, response, path, operators, Map.of());
    String marker = request.getHeaders().get(HEADER);
    if (marker == null || marker.isBlank()) {
      throw new Problem(
          403,
          "CROSS_SITE",
          path
              + " acts only on a request that carries the header "
              + HEADER
              + ", as the console's page sends it; a form of another site cannot");
    }
    Map<String, String> fields = fields(request, path);
    send(response, callback, path.equals(REPLAY) ? replay(fields) : redeliver(fields));
  }

  private Map<String, Object> replay(Map<String, String> fields) {
    if ("true".equals(fields.get("all")) && !fields.containsKey("id"))
      return Map.of("replayed", application.admin().replayAll());
    String id = fields.get("id");
    if (id == null || fields.containsKey("all")) {
      throw new Problem(400, "CONTRACT", REPLAY + " takes ?id=<parked id> or ?all=true");
    }
    if (!application.admin().replay(id))
      throw new Problem(
          404,
          "NOT_FOUND",
          "no parked message has the id " + id + "; it may have been replayed already");
    return Map.of("replayed", 1);
  }

  private Map<String, Object> redeliver(Map<String, String> fields) {
    String id = fields.get("id");
    if (id == null) throw new Problem(400, "CONTRACT", REDELIVER + " takes ?id=<outbox entry id>");
    String component =
        application
            .admin()
            .redeliver(id)
            .orElseThrow(
                () ->
                    new Problem(
                        404, "NOT_FOUND", "no component has an outbox entry with the id " + id));
    return Map.of("redelivered", id, "component", component);
  }

  /** The query string's fields, each at most once, and only those an action takes. */
  private static Map<String, String> fields(Request request, String path) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (QueryString.Field field : QueryString.fields(request.getHttpURI().getQuery())) {
      boolean known =
          field.name().equals("id") || (path.equals(REPLAY) && field.name().equals("all"));
      if (!known)
        throw new Problem(
            400, "CONTRACT", "the query string key '" + field.name() + "' is not taken by " + path);
      if (fields.put(field.name(), field.value()) != null)
        throw new Problem(
            400, "CONTRACT", "the query string key '" + field.name() + "' is given twice");
    }
    return fields;
  }

  private static void only(Request request, Response response, String path, String... methods) {
    if (List.of(methods).contains(request.getMethod())) return;
    response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", methods));
    throw new Problem(
        405, "METHOD_NOT_ALLOWED", path + " answers " + String.join(" and ", methods) + " only");
  }

  private static void send(Response response, Callback callback, Map<String, Object> body) {
    headers(response);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Media.JSON.type + "; charset=utf-8");
    Content.Sink.write(response, true, Media.JSON.write(body), callback);
  }

  /**
   * No framing (a replay button under another site's page), no sniffing, no referrer, no foreign
   * code.
   */
  private static void headers(Response response) {
    response.getHeaders().put("content-security-policy", POLICY);
    response.getHeaders().put("x-frame-options", "DENY");
    response.getHeaders().put("x-content-type-options", "nosniff");
    response.getHeaders().put("referrer-policy", "no-referrer");
  }

  private static Asset asset(String name, String type) {
    String resource = "console/" + name;
    try (InputStream in = Console.class.getResourceAsStream(resource)) {
      if (in == null)
        throw new IllegalStateException(
            "The console's " + resource + " is missing from the jar of " + Console.class.getName());
      return new Asset(type, in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("The console's " + resource + " cannot be read", e);
    }
  }
}
