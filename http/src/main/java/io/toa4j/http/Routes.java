package io.toa4j.http;

import io.toa4j.api.Failure;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.OperationType;
import io.toa4j.runtime.Requests;
import io.toa4j.runtime.StartupException;
import io.toa4j.runtime.Toa;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The route tree of every component, read from the manifests' {@code exposition} at start, checked
 * against the operations (GET calls an observation, POST a transition without query or an effect,
 * PUT a transition, PATCH an assignment), and matched against request paths.
 */
final class Routes {
  private static final Map<String, List<OperationType>> METHODS =
      Map.of(
          "GET", List.of(OperationType.OBSERVATION, OperationType.COMPUTATION),
          "POST",
              List.of(OperationType.TRANSITION, OperationType.EFFECT, OperationType.COMPUTATION),
          "PUT", List.of(OperationType.TRANSITION),
          "PATCH", List.of(OperationType.ASSIGNMENT),
          "DELETE", List.of(OperationType.TRANSITION, OperationType.ASSIGNMENT));

  private final List<Route> routes;

  private Routes(List<Route> routes) {
    this.routes = routes;
  }

  static Routes of(Toa application) {
    List<Route> routes = new ArrayList<>();
    for (ComponentManifest manifest : application.context().components()) {
      if (manifest.exposition().isEmpty()) continue;
      // as in Toa: a component of the default namespace is served at /<name>
      String mount =
          manifest.namespace().equals("default")
              ? "/" + manifest.name()
              : "/" + manifest.namespace() + "/" + manifest.name();
      walk(
          manifest,
          mount,
          List.of(),
          manifest.exposition().get(),
          Route.Directives.NONE,
          routes,
          application);
    }
    routes.sort(Comparator.comparingInt(Route::literals).reversed());
    return new Routes(List.copyOf(routes));
  }

  private static void walk(
      ComponentManifest manifest,
      String mount,
      List<String> segments,
      JsonNode node,
      Route.Directives inherited,
      List<Route> routes,
      Toa application) {
    Route.Directives directives = directives(node, inherited);
    Map<String, Route.Method> methods = new LinkedHashMap<>();
    node.properties()
        .forEach(
            field -> {
              String key = field.getKey();
              if (key.startsWith("/")) {
                List<String> nested = new ArrayList<>(segments);
                Arrays.stream(key.split("/")).filter(s -> !s.isEmpty()).forEach(nested::add);
                walk(manifest, mount, nested, field.getValue(), directives, routes, application);
              } else if (METHODS.containsKey(key)) {
                JsonNode declared = field.getValue();
                String operation =
                    declared.isObject() ? declared.get("endpoint").asString() : declared.asString();
                OperationType type = application.typeOf(manifest.label(), operation);
                if (!METHODS.get(key).contains(type)) {
                  throw new StartupException(
                      manifest.file()
                          + " at exposition: "
                          + key
                          + " "
                          + operation
                          + " calls "
                          + type.yamlName()
                          + ", but "
                          + key
                          + " calls "
                          + METHODS.get(key).stream().map(OperationType::yamlName).toList()
                          + "; map "
                          + type.yamlName()
                          + " to another method");
                }
                Route.Directives own =
                    declared.isObject() ? directives(declared, directives) : directives;
                Optional<Route.QueryBlock> query =
                    declared.isObject() && declared.path("query").isObject()
                        ? Optional.of(queryBlock(declared.get("query")))
                        : Optional.empty();
                String where =
                    manifest.file()
                        + " at exposition: "
                        + key
                        + " "
                        + mount
                        + "/"
                        + String.join("/", segments);
                query.ifPresent(q -> checkQuery(manifest, where, q));
                if (!key.equals("POST")) checkVariables(manifest, where, segments);
                methods.put(key, new Route.Method(operation, own, query));
              }
            });
    if (!methods.isEmpty())
      routes.add(
          new Route(
              manifest.label(), mount, List.copyOf(segments), Map.copyOf(methods), directives));
  }

  private static Route.Directives directives(JsonNode node, Route.Directives inherited) {
    boolean anonymous =
        node.has("auth:anonymous") ? node.get("auth:anonymous").asBoolean() : inherited.anonymous();
    boolean anyone =
        node.has("auth:anyone") ? node.get("auth:anyone").asBoolean() : inherited.anyone();
    List<String> roles = node.has("auth:role") ? strings(node.get("auth:role")) : inherited.roles();
    Optional<String> id =
        node.has("auth:id") ? Optional.of(node.get("auth:id").asString()) : inherited.id();
    Optional<List<String>> output = inherited.output();
    boolean whole = inherited.whole();
    JsonNode io = node.get("io:output");
    if (io != null) {
      // io:output: true shows the answer whole, false shows none, a list shows those properties
      whole = io.isBoolean() && io.asBoolean();
      output = io.isBoolean() ? Optional.empty() : Optional.of(strings(io));
    }
    Optional<List<String>> input =
        node.has("io:input") ? Optional.of(strings(node.get("io:input"))) : inherited.input();
    boolean keyRequired =
        node.has("io:idempotency-key")
            ? node.get("io:idempotency-key").asString().equals("required")
            : inherited.keyRequired();
    return new Route.Directives(anonymous, anyone, roles, id, output, whole, input, keyRequired);
  }

  /**
   * A method's query block, its windows as the manifest reader wrote them out ({@code { value,
   * range }}).
   */
  private static Route.QueryBlock queryBlock(JsonNode query) {
    Optional<String> criteria = text(query, "criteria");
    Optional<String> sort = text(query, "sort");
    boolean criteriaOpen = criteria.map(c -> c.strip().endsWith(";")).orElse(false);
    boolean sortOpen = sort.map(c -> c.strip().endsWith(";")).orElse(false);
    List<String> selectors = query.has("selectors") ? strings(query.get("selectors")) : List.of();
    List<String> parameters =
        query.has("parameters") ? strings(query.get("parameters")) : List.of();
    return new Route.QueryBlock(
        criteria.map(Routes::closed).filter(c -> !c.isEmpty()),
        criteriaOpen,
        sort.map(Routes::closed).filter(c -> !c.isEmpty()),
        sortOpen,
        window(query.get("omit"), Route.QueryBlock.OMIT),
        window(query.get("limit"), Route.QueryBlock.LIMIT),
        selectors,
        parameters);
  }

  private static Optional<String> text(JsonNode node, String key) {
    return node.has(key) ? Optional.of(node.get(key).asString()) : Optional.empty();
  }

  /** An open criteria or sort without the {@code ;} that opens it. */
  private static String closed(String text) {
    String stripped = text.strip();
    return stripped.endsWith(";") ? stripped.substring(0, stripped.length() - 1).strip() : stripped;
  }

  private static long[] window(JsonNode declared, long[] otherwise) {
    if (declared == null) return otherwise;
    return new long[] {
      declared.get("value").asLong(),
      declared.get("range").get(0).asLong(),
      declared.get("range").get(1).asLong()
    };
  }

  /**
   * The block's criteria, sort and selectors name properties of the component, of comparable kinds.
   */
  private static void checkQuery(ComponentManifest manifest, String where, Route.QueryBlock block) {
    try {
      Requests.checkSelection(manifest, block.criteria(), block.sort());
      if (!block.selectors().isEmpty())
        Requests.checkSelection(
            manifest, Optional.empty(), Optional.of(String.join(";", block.selectors())));
    } catch (Failure e) {
      throw new StartupException(
          where
              + ": "
              + e.getMessage()
              + (block.selectors().isEmpty() ? "" : " (selectors " + block.selectors() + ")"));
    }
  }

  /** A route variable other than :id is a criterion on the property it names, which must exist. */
  private static void checkVariables(
      ComponentManifest manifest, String where, List<String> segments) {
    for (String segment : segments) {
      if (!segment.startsWith(":") || segment.equals(":id")) continue;
      try {
        Requests.checkSelection(manifest, Optional.empty(), Optional.of(segment.substring(1)));
      } catch (Failure e) {
        throw new StartupException(
            where
                + ": the route variable "
                + segment
                + " selects records by the property it names: "
                + e.getMessage().replace("query.sort: ", ""));
      }
    }
  }

  private static List<String> strings(JsonNode node) {
    if (node.isString()) return List.of(node.asString());
    List<String> values = new ArrayList<>();
    node.forEach(v -> values.add(v.asString()));
    return List.copyOf(values);
  }

  /** A route matched by a path, with the values of its variables. */
  record Match(Route route, Map<String, String> variables) {}

  /**
   * The route whose path is the request's, literal segments preferred over variables. The path must
   * end with a slash.
   */
  Optional<Match> match(String path) {
    if (!path.endsWith("/")) return Optional.empty();
    List<String> parts = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    for (Route route : routes) {
      List<String> mount =
          Arrays.stream(route.mount().split("/")).filter(s -> !s.isEmpty()).toList();
      if (parts.size() != mount.size() + route.segments().size()
          || !parts.subList(0, mount.size()).equals(mount)) continue;
      Map<String, String> variables = new LinkedHashMap<>();
      boolean matches = true;
      for (int i = 0; i < route.segments().size() && matches; i++) {
        String segment = route.segments().get(i);
        String part = parts.get(mount.size() + i);
        if (segment.startsWith(":")) variables.put(segment.substring(1), part);
        else matches = segment.equals(part);
      }
      if (matches) return Optional.of(new Match(route, variables));
    }
    return Optional.empty();
  }

  List<Route> all() {
    return routes;
  }
}
