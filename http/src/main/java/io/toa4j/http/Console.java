package io.toa4j.http;

import io.toa4j.runtime.ParkedFilter;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 *   <li>{@code GET /.toa/console/state}: the document of {@link ConsoleState}, with one page of the
 *       parked messages that match the filter in its query ({@code component}, {@code operation},
 *       {@code code}, {@code since}, {@code search}, {@code offset}, {@code size}).
 *   <li>{@code GET /.toa/console/message?id=<parked id>}: one parked message whole, its payload
 *       with it.
 *   <li>{@code POST /.toa/console/replay?id=<parked id>}, {@code ?all=true}, or the filter's
 *       fields: puts parked messages back on their queues ({@link io.toa4j.runtime.Admin#replay}).
 *   <li>{@code POST /.toa/console/discard?reason=...} with {@code id}, {@code all=true} or the
 *       filter's fields: removes parked messages for good, keeping the reason ({@link
 *       io.toa4j.runtime.Admin#discard}).
 *   <li>{@code POST /.toa/console/restart?id=<parked id>}: drops the journal of a parked continuous
 *       run and replays it, from the top ({@link io.toa4j.runtime.Admin#restart}).
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
  static final String MESSAGE = ROOT + "message";
  static final String REPLAY = ROOT + "replay";
  static final String DISCARD = ROOT + "discard";
  static final String RESTART = ROOT + "restart";
  static final String REDELIVER = ROOT + "redeliver";

  /** The longest reason a discard keeps, in characters. */
  static final int REASON = 500;

  /** The fields of the query string each endpoint takes. */
  private static final Map<String, Set<String>> FIELDS =
      Map.of(
          STATE,
          union(ConsoleState.FILTER, Set.of("offset", "size")),
          MESSAGE,
          Set.of("id"),
          REPLAY,
          union(ConsoleState.FILTER, Set.of("id", "all")),
          DISCARD,
          union(ConsoleState.FILTER, Set.of("id", "all", "reason")),
          RESTART,
          Set.of("id"),
          REDELIVER,
          Set.of("id"));

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
    if (path.equals(STATE) || path.equals(MESSAGE)) {
      only(request, response, path, "GET", "HEAD");
      access.admit(request, response, path, operators, Map.of());
      Map<String, String> fields = fields(request, path);
      send(
          response,
          callback,
          path.equals(STATE)
              ? ConsoleState.of(application, ConsoleState.filter(fields), ConsoleState.page(fields))
              : message(fields));
      return;
    }
    if (!FIELDS.containsKey(path)) {
      throw new Problem(404, "NOT_FOUND", "no route " + path + "; the console is at " + ROOT);
    }
    only(request, response, path, "POST");
    Caller caller = access.admit(request, response, path, operators, Map.of());
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
    String by = "'" + caller.name() + "' at the console";
    Map<String, Object> done =
        switch (path) {
          case REPLAY -> replay(fields, by);
          case DISCARD -> discard(fields, by);
          case RESTART -> restart(fields, by);
          default -> redeliver(fields);
        };
    send(response, callback, done);
  }

  private Map<String, Object> message(Map<String, String> fields) {
    String id = fields.get("id");
    if (id == null) throw new Problem(400, "CONTRACT", MESSAGE + " takes ?id=<parked id>");
    return ConsoleState.message(application, id)
        .orElseThrow(
            () ->
                new Problem(
                    404,
                    "NOT_FOUND",
                    "no parked message has the id " + id + "; it may have been replayed already"));
  }

  /**
   * Which parked messages an action takes: one by {@code id}, every one with {@code all=true}, or
   * those the filter's fields match (at least one of them given); never two of these at once.
   */
  private static Optional<ParkedFilter> which(Map<String, String> fields, String path) {
    boolean one = fields.containsKey("id");
    boolean all = fields.containsKey("all");
    boolean filtered = fields.keySet().stream().anyMatch(ConsoleState.FILTER::contains);
    if (all && !"true".equals(fields.get("all")))
      throw new Problem(400, "CONTRACT", "all is true or absent; got '" + fields.get("all") + "'");
    if ((one ? 1 : 0) + (all ? 1 : 0) + (filtered ? 1 : 0) != 1)
      throw new Problem(
          400,
          "CONTRACT",
          path
              + " takes one of: ?id=<parked id>, ?all=true, or a filter ("
              + String.join(", ", new TreeSet<>(ConsoleState.FILTER))
              + ")");
    if (one) return Optional.empty();
    return Optional.of(all ? ParkedFilter.all() : ConsoleState.filter(fields));
  }

  private Map<String, Object> replay(Map<String, String> fields, String by) {
    Optional<ParkedFilter> filter = which(fields, REPLAY);
    if (filter.isPresent())
      return Map.of("replayed", application.admin().replay(filter.get(), by).size());
    String id = fields.get("id");
    if (!application.admin().replay(id, by)) throw notParked(id);
    return Map.of("replayed", 1);
  }

  private Map<String, Object> discard(Map<String, String> fields, String by) {
    String reason = fields.getOrDefault("reason", "").strip();
    if (reason.isEmpty())
      throw new Problem(
          400, "CONTRACT", DISCARD + " keeps the reason of a discard; give it as ?reason=...");
    if (reason.length() > REASON)
      throw new Problem(
          400,
          "CONTRACT",
          "a discard's reason is at most " + REASON + " characters; got " + reason.length());
    Optional<ParkedFilter> filter = which(fields, DISCARD);
    if (filter.isPresent())
      return Map.of("discarded", application.admin().discard(filter.get(), reason, by).size());
    String id = fields.get("id");
    if (!application.admin().discard(id, reason, by)) throw notParked(id);
    return Map.of("discarded", 1);
  }

  private Map<String, Object> restart(Map<String, String> fields, String by) {
    String id = fields.get("id");
    if (id == null) throw new Problem(400, "CONTRACT", RESTART + " takes ?id=<parked id>");
    if (!application.admin().restart(id, by)) throw notParked(id);
    return Map.of("restarted", 1);
  }

  private static Problem notParked(String id) {
    return new Problem(
        404,
        "NOT_FOUND",
        "no parked message has the id " + id + "; it may have been replayed or discarded already");
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

  /** The query string's fields, each at most once, and only those the endpoint takes. */
  private static Map<String, String> fields(Request request, String path) {
    Set<String> taken = FIELDS.get(path);
    Map<String, String> fields = new LinkedHashMap<>();
    for (QueryString.Field field : QueryString.fields(request.getHttpURI().getQuery())) {
      if (!taken.contains(field.name()))
        throw new Problem(
            400,
            "CONTRACT",
            "the query string key '"
                + field.name()
                + "' is not taken by "
                + path
                + "; it takes "
                + String.join(", ", new TreeSet<>(taken)));
      if (fields.put(field.name(), field.value()) != null)
        throw new Problem(
            400, "CONTRACT", "the query string key '" + field.name() + "' is given twice");
    }
    return fields;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> both = new HashSet<>(a);
    both.addAll(b);
    return Set.copyOf(both);
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
