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
  private static final Set<String> BLOCK_KEYS =
      Set.of("version", "limit", "omit", "criteria", "sort");
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

  Exchange(
      Toa application,
      Routes routes,
      GatewaySettings settings,
      PrometheusMeterRegistry prometheus) {
    this.application = application;
    this.access = Access.of(application, settings);
    this.routes = routes;
    this.settings = settings;
    this.prometheus = prometheus;
    this.idempotency = new Idempotency(application, settings.attach());
    this.traces = new Traces(application.openTelemetry());
    this.metrics = Route.Directives.roles(List.of(settings.metricsRole()));
    this.console = new Console(application, access, settings.operatorRole());
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Context traced = traces.start(request);
    Callback answered = Callback.from(callback, () -> Traces.end(traced, response.getStatus()));
    try (Scope scope = traced.makeCurrent()) {
      guarded(
          request,
          response,
          answered,
          false,
          () ->
              answer(
                  request,
                  response,
                  answered,
                  Media.ofAccept(request.getHeaders().get(HttpHeader.ACCEPT))));
    }
    return true;
  }

  /** Whether the request declares a body: a positive {@code content-length}, or chunks. */
  private static boolean announcesBody(Request request) {
    return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH) > 0
        || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  /**
   * Runs a step of the exchange, answering whatever it throws: a problem, a failure, a bug. A
   * request answered before its body was read leaves the body unread, so the connection cannot
   * carry the client's next request: the answer says {@code connection: close}, as Jetty cannot
   * once the answer is out.
   */
  private void guarded(
      Request request, Response response, Callback callback, boolean bodyRead, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      if (!bodyRead && announcesBody(request))
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
      answer(request, response, callback, e);
    }
  }

  private static void answer(
      Request request, Response response, Callback callback, RuntimeException e) {
    if (e instanceof Problem p) {
      refuse(request, response, callback, p);
    } else if (e instanceof Failure f && f.code() == Failure.Code.CONTENTION) {
      // written for the client, naming what it asked for: a repeat may succeed once the record's
      // other writers are done
      LOG.warn(
          "{} {} failed: {}", request.getMethod(), request.getHttpURI().getPath(), f.getMessage());
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      Problems.send(response, callback, f.code().status(), f.code().name(), f.getMessage());
    } else if (e instanceof Failure f) {
      int status = f.code().status();
      String message =
          status >= 500
              ? "the request failed inside the application; it is logged"
              : f.getMessage();
      if (status >= 500)
        LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), f);
      Problems.send(
          response,
          callback,
          status,
          f.code().name(),
          message,
          status >= 500 ? Map.of() : Map.copyOf(f.details()));
    } else {
      LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
      Problems.send(
          response,
          callback,
          500,
          "SYSTEM",
          "the request failed inside the application; it is logged");
    }
  }

  /** Sends the problem, after its hold when it has one (scheduled: no thread waits). */
  private static void refuse(Request request, Response response, Callback callback, Problem p) {
    if (p.hold().isZero()) {
      Problems.send(response, callback, p.status, p.code, p.getMessage());
      return;
    }
    request
        .getComponents()
        .getScheduler()
        .schedule(
            () -> Problems.send(response, callback, p.status, p.code, p.getMessage()),
            p.hold().toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /**
   * Everything that needs no body comes first (route, method, credentials and role, the query), so
   * a request that is refused never has its body read; then the body is read without holding a
   * thread ({@link Body}), and the call is made once it is in.
   */
  private void answer(Request request, Response response, Callback callback, Media answerAs) {
    String path = request.getHttpURI().getPath();
    // the gateway's own endpoints read no body: one that was sent is left unread (see guarded)
    if (path.startsWith("/.toa/") && announcesBody(request))
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    if (path.equals(Access.TOKEN_PATH)) {
      send(response, callback, 200, answerAs, access.token(request, response));
      return;
    }
    if (path.startsWith("/.toa/")) {
      operations(request, response, callback, answerAs, path);
      return;
    }
    Routes.Match match =
        routes
            .match(path)
            .orElseThrow(
                () ->
                    new Problem(
                        404,
                        "NOT_FOUND",
                        "no route "
                            + path
                            + (path.endsWith("/") ? "" : "; paths end with a slash")));
    Route route = match.route();
    Traces.routed(request.getMethod(), route.path());
    Route.Method method = route.methods().get(method(request));
    if (method == null) {
      List<String> allowed = allowed(route);
      response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", allowed));
      throw new Problem(
          405,
          "METHOD_NOT_ALLOWED",
          request.getMethod() + " is not declared on " + route.path() + "; it declares " + allowed);
    }
    // Before the body is read or anything reaches the application: 401, 403 or 429 otherwise.
    Caller caller =
        access.admit(request, response, route.path(), method.directives(), match.variables());
    String operation = method.operation();
    ObjectNode parameters = NODES.objectNode();
    ObjectNode query =
        query(
            request,
            match,
            method,
            application.enumerates(route.component(), operation),
            parameters);
    Context traced =
        Context
            .current(); // the request's span, for the call made once the body is in, on whichever
    // thread
    Body.read(
        request,
        response,
        settings,
        bytes -> {
          try (Scope scope = traced.makeCurrent()) {
            guarded(
                request,
                response,
                callback,
                true,
                () ->
                    call(
                        request,
                        response,
                        callback,
                        answerAs,
                        match,
                        method,
                        caller,
                        query,
                        parameters,
                        bytes));
          }
        },
        problem -> refuse(request, response, callback, problem));
  }

  private void call(
      Request request,
      Response response,
      Callback callback,
      Media answerAs,
      Routes.Match match,
      Route.Method method,
      Caller caller,
      ObjectNode query,
      ObjectNode parameters,
      byte[] bytes) {
    Route route = match.route();
    String operation = method.operation();
    ObjectNode tree = NODES.objectNode();
    if (!query.isEmpty()) tree.set("query", query);
    JsonNode input = input(request, match, parameters, body(request, method.directives(), bytes));
    if (!input.isMissingNode()) tree.set("input", input);
    Reply reply =
        idempotency.call(
            request,
            response,
            method.directives().keyRequired(),
            route.path(),
            route.component() + "." + operation,
            caller.id(),
            Requests.parse(tree));
    if (reply instanceof Reply.Refused refused) {
      Map<String, Object> cause = new LinkedHashMap<>();
      refused.refusal().cause().ifPresent(c -> cause.put("cause", c));
      String code = refused.refusal().code();
      Problems.send(
          response,
          callback,
          422,
          code,
          route.component() + "." + operation + " refused the request: " + code,
          cause);
      return;
    }
    Object value = ((Reply.Output) reply).value().orElse(null);
    if (value == null
        && application.typeOf(route.component(), operation) == OperationType.OBSERVATION) {
      // as in Toa: an observation that answers nothing found nothing
      throw new Problem(
          404,
          "NOT_FOUND",
          route.component()
              + "."
              + operation
              + " found nothing at "
              + request.getHttpURI().getPath());
    }
    boolean creating =
        request.getMethod().equals("POST")
            && application.typeOf(route.component(), operation) == OperationType.TRANSITION;
    if (value instanceof Map<?, ?> record && record.get("VERSION") instanceof Number version) {
      response.getHeaders().put(HttpHeader.ETAG, "\"" + version + "\"");
    }
    Route.Directives directives = method.directives();
    if (!directives.answers()) {
      response.setStatus(creating ? 201 : 204);
      callback.succeeded();
      return;
    }
    send(
        response,
        callback,
        creating ? 201 : 200,
        answerAs,
        directives.whole() ? value : shown(value, directives.output().get()));
  }

  /**
   * The gateway's own endpoints, outside every component's tree: health, open to all and saying
   * only up or down; metrics, for an identity holding the metrics role; the operator console.
   */
  private void operations(
      Request request, Response response, Callback callback, Media answerAs, String path) {
    if (path.startsWith(Console.ROOT)) {
      console.answer(request, response, callback, path);
      return;
    }
    if (!path.equals(HEALTH) && !path.equals(METRICS)) {
      throw new Problem(
          404,
          "NOT_FOUND",
          "no route "
              + path
              + "; the gateway's own are "
              + HEALTH
              + ", "
              + METRICS
              + ", "
              + Access.TOKEN_PATH
              + " and the console at "
              + Console.ROOT);
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
      send(
          response,
          callback,
          problem.isEmpty() ? 200 : 503,
          answerAs,
          Map.of("status", problem.isEmpty() ? "up" : "down"));
      return;
    }
    access.admit(request, response, METRICS, metrics, Map.of());
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
    Content.Sink.write(response, true, prometheus.scrape(), callback);
  }

  /**
   * Path variables, the query string and {@code if-match}, as a query tree. {@code :id} is the
   * query's id; every other variable is a criterion on the property it names, except on POST, whose
   * variables are input ({@link #input}). Without a query block the query string may carry version,
   * limit and omit. With one, as Toa reads it: the block's criteria, the variables' and the
   * request's (when the block's criteria are open) are joined with AND; the request's sort follows
   * the block's (when open); a request's criteria and sort name only the block's selectors; omit
   * and limit take the block's defaults and must be in its ranges, and an operation on one record
   * takes neither; the block's parameters go to {@code parameters}, to be set in the input.
   */
  private static ObjectNode query(
      Request request,
      Routes.Match match,
      Route.Method method,
      boolean enumerates,
      ObjectNode parameters) {
    ObjectNode query = NODES.objectNode();
    List<String> criteria = new ArrayList<>();
    Optional<Route.QueryBlock> block = method.query();
    block.flatMap(Route.QueryBlock::criteria).ifPresent(criteria::add);
    boolean post = request.getMethod().equals("POST");
    match
        .variables()
        .forEach(
            (name, value) -> {
              if (name.equals("id")) query.put(name, value);
              else if (!post) criteria.add(name + "==" + quoted(value));
            });
    Optional<String> sort = block.flatMap(Route.QueryBlock::sort);
    Set<String> keys = block.isPresent() ? BLOCK_KEYS : QUERY_KEYS;
    Set<String> given = new java.util.HashSet<>();
    for (QueryString.Field field : QueryString.fields(request.getHttpURI().getQuery())) {
      String key = field.name();
      boolean parameter = block.map(b -> b.parameters().contains(key)).orElse(false);
      if (!keys.contains(key) && !parameter) {
        Set<String> known = new java.util.TreeSet<>(keys);
        block.ifPresent(b -> known.addAll(b.parameters()));
        throw new Problem(
            400, "CONTRACT", "the query string key '" + key + "' is not declared; use " + known);
      }
      if (!given.add(key))
        throw new Problem(400, "CONTRACT", "the query string gives '" + key + "' twice");
      if (parameter) {
        parameters.put(key, field.value());
        continue;
      }
      if ((key.equals("criteria") || key.equals("sort")) && field.value().isBlank()) {
        throw new Problem(400, "CONTRACT", "the query string gives '" + key + "' empty");
      }
      Route.QueryBlock declared = block.orElse(null);
      switch (key) {
        case "criteria" -> {
          if (!declared.criteriaOpen() && declared.criteria().isPresent()) {
            throw new Problem(
                400,
                "CONTRACT",
                "this route's criteria are closed: the query string cannot add criteria");
          }
          selected(declared, "criteria", Requests.criteriaProperties(field.value()));
          criteria.add(field.value());
        }
        case "sort" -> {
          if (!declared.sortOpen() && declared.sort().isPresent()) {
            throw new Problem(
                400, "CONTRACT", "this route's sort is closed: the query string cannot sort");
          }
          selected(declared, "sort", sortProperties(field.value()));
          sort = Optional.of(sort.map(s -> s + ";").orElse("") + field.value());
        }
        default -> query.set(key, number(key, field.value()));
      }
    }
    if (block.isPresent()) window(query, block.get(), enumerates);
    if (!criteria.isEmpty())
      query.put(
          "criteria",
          criteria.size() == 1 ? criteria.get(0) : "(" + String.join(");(", criteria) + ")");
    sort.ifPresent(s -> query.put("sort", s));
    String ifMatch = request.getHeaders().get(HttpHeader.IF_MATCH);
    if (ifMatch != null)
      query.set("version", number("if-match", ifMatch.replace("\"", "").replace("W/", "").trim()));
    return query;
  }

  /** A variable's value as an RSQL argument: quoted, its quotes and backslashes escaped. */
  private static String quoted(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** The properties a sort names: each step's, before its {@code :asc} or {@code :desc}. */
  private static List<String> sortProperties(String sort) {
    List<String> names = new ArrayList<>();
    for (String step : sort.split(";"))
      if (!step.isBlank()) names.add(step.strip().replaceFirst(":(asc|desc)$", ""));
    return names;
  }

  /** A request's criteria or sort may name only the block's selectors. */
  private static void selected(
      Route.QueryBlock block, String what, java.util.Collection<String> properties) {
    for (String property : properties) {
      if (!block.selectors().contains(property)) {
        throw new Problem(
            400,
            "CONTRACT",
            "the query string's "
                + what
                + " names '"
                + property
                + "', which this route does not let a request select"
                + (block.selectors().isEmpty()
                    ? " (it declares no selectors)"
                    : "; it lets it select " + block.selectors()));
      }
    }
  }

  /**
   * The block's omit and limit: the request's within their ranges, else their defaults; none for an
   * operation on one record.
   */
  private static void window(ObjectNode query, Route.QueryBlock block, boolean enumerates) {
    for (String key : List.of("omit", "limit")) {
      long[] window = key.equals("omit") ? block.omit() : block.limit();
      if (!enumerates) {
        if (query.has(key))
          throw new Problem(
              400,
              "CONTRACT",
              "this route answers one record: the query string cannot give " + key);
        continue;
      }
      long value = query.has(key) ? query.get(key).asLong() : window[0];
      if (value < window[1] || value > window[2]) {
        throw new Problem(
            400,
            "CONTRACT",
            key + " must be from " + window[1] + " to " + window[2] + " here; got " + value);
      }
      query.put(key, value);
    }
  }

  private static JsonNode number(String key, String value) {
    try {
      return NODES.numberNode(Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw new Problem(400, "CONTRACT", key + " must be a whole number; got '" + value + "'");
    }
  }

  /**
   * The body's input with the query block's parameters set in it and, on POST, the route's
   * variables other than {@code :id}, over what the body says (as Toa merges them); the body's
   * input as it is when there is nothing to set.
   */
  private static JsonNode input(
      Request request, Routes.Match match, ObjectNode parameters, JsonNode body) {
    ObjectNode set = parameters.deepCopy();
    if (request.getMethod().equals("POST")) {
      match
          .variables()
          .forEach(
              (name, value) -> {
                if (!name.equals("id")) set.put(name, value);
              });
    }
    if (set.isEmpty()) return body;
    if (!body.isMissingNode() && !body.isObject()) {
      throw new Problem(
          400,
          "CONTRACT",
          "the body of this request to "
              + match.route().path()
              + " is an object: "
              + new ArrayList<>(set.propertyNames())
              + " are set in it from the route and the query string");
    }
    ObjectNode merged = body.isObject() ? ((ObjectNode) body).deepCopy() : NODES.objectNode();
    merged.setAll(set);
    return merged;
  }

  /** The body as a tree, in the declared format, with only io:input keys. */
  private static JsonNode body(Request request, Route.Directives directives, byte[] bytes) {
    if (bytes.length == 0) return tools.jackson.databind.node.MissingNode.getInstance();
    String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (contentType == null)
      throw new Problem(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "a body needs a content-type: application/json or application/yaml");
    JsonNode input = Media.ofContent(contentType).read(bytes);
    directives
        .input()
        .ifPresent(
            allowed -> {
              if (!input.isObject()) return;
              for (String key : input.propertyNames()) {
                if (allowed.contains(key)) continue;
                String pointer = "/" + key.replace("~", "~0").replace("/", "~1");
                throw new Problem(
                    400,
                    "CONTRACT",
                    pointer
                        + ": the body property '"
                        + key
                        + "' is not accepted here; accepted: "
                        + allowed);
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

  private static void send(
      Response response, Callback callback, int status, Media media, Object body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, media.type + "; charset=utf-8");
    Content.Sink.write(response, true, media.write(body), callback);
  }
}
