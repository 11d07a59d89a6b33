package io.toa4j.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.manifest.OperationType;
import io.toa4j.runtime.Requests;
import io.toa4j.runtime.Toa;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request through the gateway: route, method, access, query, body, call, answer. Every way a
 * request can be refused becomes a 4xx with a message that says what is wrong; only a failure of
 * the system is a 500, and its body says nothing of the internals.
 */
final class Exchange extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
  private static final Set<String> QUERY_KEYS = Set.of("version", "limit", "omit");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final String HEALTH = "/.toa/health";
  static final String METRICS = "/.toa/metrics";
  private final Toa application;
  private final Idempotency idempotency;
  private final Routes routes;
  private final GatewaySettings settings;
  private final PrometheusMeterRegistry prometheus;
  private final Access access;
  private final Route.Directives metrics;
  private final Traces traces;
  private final Console console;
  private volatile boolean down; // the last health answer, so a change is logged once

  Exchange(Toa application, Routes routes, GatewaySettings settings, PrometheusMeterRegistry prometheus) {
    this.application = application;
    this.access = Access.of(application, settings);
    this.routes = routes;
    this.settings = settings;
    this.prometheus = prometheus;
    this.idempotency = new Idempotency(application, settings.attach());
    this.traces = new Traces(application.openTelemetry());
    this.metrics = new Route.Directives(false, List.of(settings.metricsRole()), Optional.empty(), Optional.empty(), Optional.empty(), false);
    this.console = new Console(application, access, settings.operatorRole());
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Context traced = traces.start(request);
    Callback answered = Callback.from(callback, () -> Traces.end(traced, response.getStatus()));
    try (Scope scope = traced.makeCurrent()) {
      guarded(request, response, answered, false, () -> answer(request, response, answered, Media.ofAccept(request.getHeaders().get(HttpHeader.ACCEPT))));
    }
    return true;
  }

  /** Whether the request declares a body: a positive {@code content-length}, or chunks. */
  private static boolean announcesBody(Request request) {
    return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH) > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  /**
   * Runs a step of the exchange, answering whatever it throws: a problem, a failure, a bug. A
   * request answered before its body was read leaves the body unread, so the connection cannot
   * carry the client's next request: the answer says {@code connection: close}, as Jetty cannot
   * once the answer is out.
   */
  private void guarded(Request request, Response response, Callback callback, boolean bodyRead, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      if (!bodyRead && announcesBody(request)) response.getHeaders().put(HttpHeader.CONNECTION, "close");
      answer(request, response, callback, e);
    }
  }

  private static void answer(Request request, Response response, Callback callback, RuntimeException e) {
    if (e instanceof Problem p) {
      refuse(request, response, callback, p);
    } else if (e instanceof Failure f) {
      int status = f.code().status();
      String message = status >= 500 ? "the request failed inside the application; it is logged" : f.getMessage();
      if (status >= 500) LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), f);
      Problems.send(response, callback, status, f.code().name(), message, status >= 500 ? Map.of() : Map.copyOf(f.details()));
    } else {
      LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
      Problems.send(response, callback, 500, "SYSTEM", "the request failed inside the application; it is logged");
    }
  }

  /** Sends the problem, after its hold when it has one (scheduled: no thread waits). */
  private static void refuse(Request request, Response response, Callback callback, Problem p) {
    if (p.hold().isZero()) {
      Problems.send(response, callback, p.status, p.code, p.getMessage());
      return;
    }
    request.getComponents().getScheduler().schedule(
        () -> Problems.send(response, callback, p.status, p.code, p.getMessage()), p.hold().toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Everything that needs no body comes first (route, method, credentials and role, the query), so
   * a request that is refused never has its body read; then the body is read without holding a
   * thread ({@link Body}), and the call is made once it is in.
   */
  private void answer(Request request, Response response, Callback callback, Media answerAs) {
    String path = request.getHttpURI().getPath();
    // the gateway's own endpoints read no body: one that was sent is left unread (see guarded)
    if (path.startsWith("/.toa/") && announcesBody(request)) response.getHeaders().put(HttpHeader.CONNECTION, "close");
    if (path.equals(Access.TOKEN_PATH)) {
      send(response, callback, 200, answerAs, access.token(request, response));
      return;
    }
    if (path.startsWith("/.toa/")) {
      operations(request, response, callback, answerAs, path);
      return;
    }
    Routes.Match match = routes.match(path).orElseThrow(() -> new Problem(
        404, "NOT_FOUND", "no route " + path + (path.endsWith("/") ? "" : "; paths end with a slash")));
    Route route = match.route();
    Traces.routed(request.getMethod(), route.path());
    String operation = route.methods().get(method(request));
    if (operation == null) {
      List<String> allowed = allowed(route);
      response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", allowed));
      throw new Problem(405, "METHOD_NOT_ALLOWED", request.getMethod() + " is not declared on " + route.path() + "; it declares " + allowed);
    }
    // Before the body is read or anything reaches the application: 401, 403 or 429 otherwise.
    Caller caller = access.admit(request, response, match);
    ObjectNode query = query(request, match);
    Context traced = Context.current(); // the request's span, for the call made once the body is in, on whichever thread
    Body.read(request, response, settings,
        bytes -> {
          try (Scope scope = traced.makeCurrent()) {
            guarded(request, response, callback, true, () -> call(request, response, callback, answerAs, match, operation, caller, query, bytes));
          }
        },
        problem -> refuse(request, response, callback, problem));
  }

  private void call(
      Request request, Response response, Callback callback, Media answerAs, Routes.Match match, String operation, Caller caller, ObjectNode query,
      byte[] bytes) {
    Route route = match.route();
    ObjectNode tree = NODES.objectNode();
    if (!query.isEmpty()) tree.set("query", query);
    JsonNode input = body(request, route, bytes);
    if (!input.isMissingNode()) tree.set("input", input);
    Reply reply = idempotency.call(request, response, route, route.component() + "." + operation, caller.id(), Requests.parse(tree));
    if (reply instanceof Reply.Refused refused) {
      Map<String, Object> cause = new LinkedHashMap<>();
      refused.refusal().cause().ifPresent(c -> cause.put("cause", c));
      String code = refused.refusal().code();
      Problems.send(response, callback, 422, code, route.component() + "." + operation + " refused the request: " + code, cause);
      return;
    }
    Object value = ((Reply.Output) reply).value().orElse(null);
    boolean creating = request.getMethod().equals("POST") && application.typeOf(route.component(), operation) == OperationType.TRANSITION;
    if (value instanceof Map<?, ?> record && record.get("VERSION") instanceof Number version) {
      response.getHeaders().put(HttpHeader.ETAG, "\"" + version + "\"");
    }
    if (route.directives().output().isEmpty()) {
      response.setStatus(creating ? 201 : 204);
      callback.succeeded();
      return;
    }
    send(response, callback, creating ? 201 : 200, answerAs, shown(value, route.directives().output().get()));
  }

  /**
   * The gateway's own endpoints, outside every component's tree: health, open to all and saying
   * only up or down; metrics, for an identity holding the metrics role; the operator console.
   */
  private void operations(Request request, Response response, Callback callback, Media answerAs, String path) {
    if (path.startsWith(Console.ROOT)) {
      console.answer(request, response, callback, path);
      return;
    }
    if (!path.equals(HEALTH) && !path.equals(METRICS)) {
      throw new Problem(404, "NOT_FOUND", "no route " + path + "; the gateway's own are " + HEALTH + ", " + METRICS + ", " + Access.TOKEN_PATH
          + " and the console at " + Console.ROOT);
    }
    if (!method(request).equals("GET")) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      throw new Problem(405, "METHOD_NOT_ALLOWED", path + " answers GET and HEAD only");
    }
    if (path.equals(HEALTH)) {
      Optional<String> problem = application.admin().health();
      boolean wasDown = down;
      down = problem.isPresent();
      // the reason is for the operator's log, not for whoever can reach the port
      if (problem.isPresent() && !wasDown) LOG.warn("{} answers down: {}", HEALTH, problem.get());
      if (problem.isEmpty() && wasDown) LOG.info("{} answers up again", HEALTH);
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      send(response, callback, problem.isEmpty() ? 200 : 503, answerAs, Map.of("status", problem.isEmpty() ? "up" : "down"));
      return;
    }
    access.admit(request, response, METRICS, metrics, Map.of());
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
    Content.Sink.write(response, true, prometheus.scrape(), callback);
  }

  /** Path variables, the query string and {@code if-match}, as a query tree. */
  private static ObjectNode query(Request request, Routes.Match match) {
    ObjectNode query = NODES.objectNode();
    match.variables().forEach(query::put);
    for (QueryString.Field field : QueryString.fields(request.getHttpURI().getQuery())) {
      String key = field.name();
      if (!QUERY_KEYS.contains(key)) {
        throw new Problem(400, "CONTRACT", "the query string key '" + key + "' is not declared; use " + QUERY_KEYS);
      }
      query.set(key, number(key, field.value()));
    }
    String ifMatch = request.getHeaders().get(HttpHeader.IF_MATCH);
    if (ifMatch != null) query.set("version", number("if-match", ifMatch.replace("\"", "").replace("W/", "").trim()));
    return query;
  }

  private static JsonNode number(String key, String value) {
    try {
      return NODES.numberNode(Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw new Problem(400, "CONTRACT", key + " must be a whole number; got '" + value + "'");
    }
  }

  /** The body as a tree, in the declared format, with only io:input keys. */
  private static JsonNode body(Request request, Route route, byte[] bytes) {
    if (bytes.length == 0) return tools.jackson.databind.node.MissingNode.getInstance();
    String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (contentType == null) throw new Problem(415, "UNSUPPORTED_MEDIA_TYPE", "a body needs a content-type: application/json or application/yaml");
    JsonNode input = Media.ofContent(contentType).read(bytes);
    route.directives().input().ifPresent(allowed -> {
      if (!input.isObject()) return;
      for (String key : input.propertyNames()) {
        if (allowed.contains(key)) continue;
        String pointer = "/" + key.replace("~", "~0").replace("/", "~1");
        throw new Problem(400, "CONTRACT", pointer + ": the body property '" + key + "' is not accepted here; accepted: " + allowed);
      }
    });
    return input;
  }

  /** The method a request is served as: HEAD as GET, whose answer Jetty sends without its body. */
  private static String method(Request request) {
    return request.getMethod().equals("HEAD") ? "GET" : request.getMethod();
  }

  /** The methods a route answers, HEAD wherever GET is. */
  private static List<String> allowed(Route route) {
    List<String> allowed = new ArrayList<>(route.methods().keySet());
    if (allowed.contains("GET")) allowed.add(allowed.indexOf("GET") + 1, "HEAD");
    return allowed;
  }

  /** Only the properties io:output lists, of a record or of each record of a page. */
  private static Object shown(Object value, List<String> output) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> shown = new LinkedHashMap<>();
      for (String key : output) if (map.containsKey(key)) shown.put(key, map.get(key));
      return shown;
    }
    if (value instanceof List<?> list) {
      List<Object> shown = new ArrayList<>();
      for (Object item : list) shown.add(shown(item, output));
      return shown;
    }
    return value;
  }

  private static void send(Response response, Callback callback, int status, Media media, Object body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, media.type + "; charset=utf-8");
    Content.Sink.write(response, true, media.write(body), callback);
  }

}
