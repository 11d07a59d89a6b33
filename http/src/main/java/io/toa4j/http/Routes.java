package io.toa4j.http;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.OperationType;
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
          "POST", List.of(OperationType.TRANSITION, OperationType.EFFECT, OperationType.COMPUTATION),
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
      String mount = "/" + manifest.namespace() + "/" + manifest.name();
      walk(manifest, mount, List.of(), manifest.exposition().get(), Route.Directives.NONE, routes, application);
    }
    routes.sort(Comparator.comparingInt(Route::literals).reversed());
    return new Routes(List.copyOf(routes));
  }

  private static void walk(
      ComponentManifest manifest, String mount, List<String> segments, JsonNode node, Route.Directives inherited, List<Route> routes, Toa application) {
    Route.Directives directives = directives(node, inherited);
    Map<String, String> methods = new LinkedHashMap<>();
    node.properties().forEach(field -> {
      String key = field.getKey();
      if (key.startsWith("/")) {
        List<String> nested = new ArrayList<>(segments);
        Arrays.stream(key.split("/")).filter(s -> !s.isEmpty()).forEach(nested::add);
        walk(manifest, mount, nested, field.getValue(), directives, routes, application);
      } else if (METHODS.containsKey(key)) {
        String operation = field.getValue().asString();
        OperationType type = application.typeOf(manifest.label(), operation);
        if (!METHODS.get(key).contains(type)) {
          throw new StartupException(
              manifest.file() + " at exposition: " + key + " " + operation + " calls " + type.yamlName() + ", but " + key
                  + " calls " + METHODS.get(key).stream().map(OperationType::yamlName).toList() + "; map " + type.yamlName()
                  + " to another method");
        }
        methods.put(key, operation);
      }
    });
    for (String segment : segments) {
      if (segment.startsWith(":") && !segment.equals(":id")) {
        throw new StartupException(
            manifest.file() + " at exposition: the route variable " + segment + " cannot become a query yet; only :id is supported");
      }
    }
    if (!methods.isEmpty()) routes.add(new Route(manifest.label(), mount, List.copyOf(segments), Map.copyOf(methods), directives));
  }

  private static Route.Directives directives(JsonNode node, Route.Directives inherited) {
    boolean anonymous = node.has("auth:anonymous") ? node.get("auth:anonymous").asBoolean() : inherited.anonymous();
    List<String> roles = node.has("auth:role") ? strings(node.get("auth:role")) : inherited.roles();
    Optional<String> id = node.has("auth:id") ? Optional.of(node.get("auth:id").asString()) : inherited.id();
    Optional<List<String>> output = node.has("io:output") ? Optional.of(strings(node.get("io:output"))) : inherited.output();
    Optional<List<String>> input = node.has("io:input") ? Optional.of(strings(node.get("io:input"))) : inherited.input();
    boolean keyRequired = node.has("io:idempotency-key") ? node.get("io:idempotency-key").asString().equals("required") : inherited.keyRequired();
    return new Route.Directives(anonymous, roles, id, output, input, keyRequired);
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
   * The route whose path is the request's, literal segments preferred over variables. The path
   * must end with a slash.
   */
  Optional<Match> match(String path) {
    if (!path.endsWith("/")) return Optional.empty();
    List<String> parts = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    for (Route route : routes) {
      List<String> mount = Arrays.stream(route.mount().split("/")).filter(s -> !s.isEmpty()).toList();
      if (parts.size() != mount.size() + route.segments().size() || !parts.subList(0, mount.size()).equals(mount)) continue;
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
