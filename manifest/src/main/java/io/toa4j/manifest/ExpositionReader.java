package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a component's {@code exposition}: the route tree. At every level a key is a route ({@code
 * /:id/credits}), a method naming an operation ({@code PUT: credit}) or a directive ({@code
 * auth:role}, {@code io:output}, ...).
 */
final class ExpositionReader {
  static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
  static final List<String> DIRECTIVES =
      List.of(
          "auth:role",
          "auth:anonymous",
          "auth:anyone",
          "auth:id",
          "io:output",
          "io:input",
          "io:idempotency-key");

  /** What a method mapped to a mapping may declare besides its directives. */
  static final List<String> METHOD_KEYS = List.of("endpoint", "query");

  /** The keys of a method's {@code query} block, as Toa reads them. */
  static final List<String> QUERY_KEYS =
      List.of("criteria", "sort", "omit", "limit", "selectors", "parameters");

  /** The values of {@code io:idempotency-key}: whether a request must carry the header. */
  static final List<String> KEY_RULES = List.of("required", "optional");

  private static final Pattern LITERAL = Pattern.compile("^[A-Za-z0-9_-]+$");
  private static final Pattern VARIABLE = Pattern.compile("^:[A-Za-z_][A-Za-z0-9_]*$");

  private static final String LEVEL_FIX =
      "at this level write a route starting with '/', a method ("
          + String.join(", ", METHODS)
          + ") or a directive ("
          + String.join(", ", DIRECTIVES)
          + ")";

  private ExpositionReader() {}

  /**
   * The tree as declared, after checking every level of it; each method's {@code omit} and {@code
   * limit} written out as {@code { value, range: [low, high] }}, whichever form declared them.
   */
  static JsonNode read(Declared exposition, OperationNames operations) {
    level(exposition, List.of(), operations);
    ObjectNode tree = (ObjectNode) exposition.node().deepCopy();
    windows(tree, exposition.location());
    return tree;
  }

  private static void windows(ObjectNode level, Location at) {
    for (String key : level.propertyNames()) {
      JsonNode value = level.get(key);
      if (key.startsWith("/") && value.isObject()) windows((ObjectNode) value, at);
      if (!METHODS.contains(key) || !(value.path("query") instanceof ObjectNode query)) continue;
      for (String window : List.of("omit", "limit")) {
        if (!query.has(window)) continue;
        long[] w = window(window, new Declared(query.get(window), at));
        ObjectNode written = query.putObject(window).put("value", w[0]);
        written.putArray("range").add(w[1]).add(w[2]);
      }
    }
  }

  private static void level(Declared level, List<String> variables, OperationNames operations) {
    level.mapping("write a mapping; " + LEVEL_FIX);
    for (Map.Entry<String, Declared> entry : level.entries()) {
      String key = entry.getKey();
      Declared value = entry.getValue();
      if (key.startsWith("/")) {
        level(value, route(key, value.location(), variables), operations);
      } else if (METHODS.contains(key)) {
        method(key, value, variables, operations);
      } else if (DIRECTIVES.contains(key)) {
        directive(key, value, variables);
      } else {
        throw value.refuse("unknown key '" + key + "'; " + LEVEL_FIX);
      }
    }
  }

  /**
   * A method: the name of an operation, or a mapping with the operation under {@code endpoint}, a
   * {@code query} block and directives of its own, as Toa writes it.
   */
  private static void method(
      String method, Declared value, List<String> variables, OperationNames operations) {
    if (!value.node().isObject()) {
      operations.require(value);
      return;
    }
    List<String> allowed = new ArrayList<>(METHOD_KEYS);
    allowed.addAll(DIRECTIVES);
    value.mapping(
        allowed, "a method maps to an operation's name, or to { endpoint, query } with directives");
    operations.require(
        value.require(
            "endpoint", "name the operation the method calls, such as endpoint: enumerate"));
    for (Map.Entry<String, Declared> entry : value.entries()) {
      if (DIRECTIVES.contains(entry.getKey()))
        directive(entry.getKey(), entry.getValue(), variables);
    }
    Optional<Declared> query = value.get("query");
    if (query.isEmpty() || query.get().node().isNull()) return;
    if (method.equals("POST")) {
      throw query
          .get()
          .refuse(
              "POST creates: its route variables become input, and it takes no query; remove query here");
    }
    query(query.get());
  }

  /**
   * A method's query block: fixed or open criteria and sort, the window's defaults and ranges, the
   * selectors, and the parameters (query string keys that become input).
   */
  private static void query(Declared query) {
    if (query.node().has("projection")) {
      throw query
          .child("projection")
          .refuse("toa4j has no projection; io:output lists what an answer shows");
    }
    query.mapping(QUERY_KEYS, "write criteria, sort, omit, limit, selectors or parameters");
    query
        .get("criteria")
        .ifPresent(
            c ->
                c.text(
                    "write criteria in RSQL, such as state==hot (end it with ; to let a request add its own)"));
    query
        .get("sort")
        .ifPresent(
            c ->
                c.text(
                    "write a sort such as rank:desc;name (end it with ; to let a request add its own)"));
    query
        .get("selectors")
        .ifPresent(
            c ->
                c.items(
                        "list the properties a request may select and sort by, such as [rank, name]")
                    .forEach(item -> item.token(Token.PROPERTY_NAME)));
    query
        .get("parameters")
        .ifPresent(
            c ->
                c.items(
                        "list the query string keys that become input properties, such as [q, lang]")
                    .forEach(
                        item -> {
                          String name = item.token(Token.PROPERTY_NAME);
                          if (List.of("version", "limit", "omit", "criteria", "sort")
                              .contains(name)) {
                            throw item.refuse(
                                "'"
                                    + name
                                    + "' is a query key of its own; name a parameter otherwise");
                          }
                        }));
    for (String window : List.of("omit", "limit"))
      query.get(window).ifPresent(w -> window(window, w));
  }

  /**
   * {@code omit} or {@code limit}: a constant ({@code limit: 10}), a range whose lower bound is the
   * default ({@code [10, 100]}), or {@code { value, range }}.
   */
  static long[] window(String key, Declared value) {
    String fix =
        "write "
            + key
            + ": 10 (a constant), [10, 100] (a range, its lower bound the default) or { value: 10, range: [1, 100] }";
    long least = key.equals("limit") ? 1 : 0;
    long[] window;
    if (value.node().isIntegralNumber()) {
      long constant = value.integer(fix);
      window = new long[] {constant, constant, constant};
    } else if (value.node().isArray()) {
      long[] range = range(value, fix);
      window = new long[] {range[0], range[0], range[1]};
    } else {
      value.mapping(List.of("value", "range"), fix);
      long[] range = value.get("range").map(r -> range(r, fix)).orElse(null);
      Optional<Declared> given = value.get("value");
      long chosen = given.isPresent() ? given.get().integer(fix) : range == null ? least : range[0];
      if (range == null) range = new long[] {chosen, chosen};
      if (chosen < range[0] || chosen > range[1])
        throw value.refuse(key + "'s value " + chosen + " is outside its range; " + fix);
      window = new long[] {chosen, range[0], range[1]};
    }
    if (window[1] < least) throw value.refuse(key + " is at least " + least + "; " + fix);
    return window;
  }

  private static long[] range(Declared value, String fix) {
    List<Declared> bounds = value.items(fix);
    if (bounds.size() != 2) throw value.refuse("a range has two bounds; " + fix);
    long low = bounds.get(0).integer(fix);
    long high = bounds.get(1).integer(fix);
    if (low > high)
      throw value.refuse(
          "the range's lower bound " + low + " is above its upper bound " + high + "; " + fix);
    return new long[] {low, high};
  }

  /** The variables bound by the enclosing routes and this one. */
  private static List<String> route(String route, Location at, List<String> enclosing) {
    List<String> variables = new ArrayList<>(enclosing);
    if (route.equals("/")) {
      return variables;
    }
    for (String segment : route.substring(1).split("/", -1)) {
      if (VARIABLE.matcher(segment).matches()) {
        String name = segment.substring(1);
        if (variables.contains(name)) {
          throw new ManifestException(
              at,
              "the variable :"
                  + name
                  + " is already bound by an enclosing route; give this one another name");
        }
        variables.add(name);
      } else if (!LITERAL.matcher(segment).matches()) {
        throw new ManifestException(
            at,
            "'"
                + segment
                + "' is not a route segment; separate"
                + " segments with single slashes, each letters, digits, '_' or '-', or a variable"
                + " such as :id");
      }
    }
    return variables;
  }

  private static void directive(String key, Declared value, List<String> variables) {
    switch (key) {
      case "auth:role" -> roles(value);
      case "auth:anonymous" ->
          value.bool("write auth:anonymous: true (callers that send no credentials) or false");
      case "auth:anyone" ->
          value.bool("write auth:anyone: true (every caller with valid credentials) or false");
      case "io:output" -> {
        if (!value.node().isBoolean()) properties(value);
      }
      case "auth:id" -> variable(value, variables);
      case "io:idempotency-key" -> keyRule(value);
      default -> properties(value);
    }
  }

  private static void roles(Declared value) {
    if (value.node().isArray()) {
      value.items("list scopes, such as [store:wallets]").forEach(r -> r.token(Token.ROLE_SCOPE));
    } else {
      value.token(Token.ROLE_SCOPE);
    }
  }

  private static void variable(Declared value, List<String> variables) {
    String fix =
        variables.isEmpty()
            ? "put auth:id under a route with a variable, such as /:id"
            : "name a variable of the enclosing routes: " + String.join(", ", variables);
    String name = value.text(fix);
    if (!variables.contains(name)) {
      throw value.refuse("'" + name + "' is not a variable of the enclosing routes; " + fix);
    }
  }

  private static void keyRule(Declared value) {
    String fix =
        "write io:idempotency-key: required (a request without the header is refused) or optional";
    if (!KEY_RULES.contains(value.text(fix)))
      throw value.refuse("'" + value.node().stringValue() + "' is not a rule; " + fix);
  }

  private static void properties(Declared value) {
    for (Declared item : value.items("list property names, such as [id, balance]")) {
      item.token(Token.PROPERTY_NAME);
    }
  }
}
