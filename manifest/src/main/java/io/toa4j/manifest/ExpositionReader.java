package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Checks a component's {@code exposition}: the route tree. At every level a key is a route
 * ({@code /:id/credits}), a method naming an operation ({@code PUT: credit}) or a directive
 * ({@code auth:role}, {@code io:output}, ...).
 */
final class ExpositionReader {
  static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
  static final List<String> DIRECTIVES =
      List.of("auth:role", "auth:anonymous", "auth:id", "io:output", "io:input", "io:idempotency-key");

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

  /** The tree as declared, after checking every level of it. */
  static JsonNode read(Declared exposition, OperationNames operations) {
    level(exposition, List.of(), operations);
    return exposition.node().deepCopy();
  }

  private static void level(Declared level, List<String> variables, OperationNames operations) {
    level.mapping("write a mapping; " + LEVEL_FIX);
    for (Map.Entry<String, Declared> entry : level.entries()) {
      String key = entry.getKey();
      Declared value = entry.getValue();
      if (key.startsWith("/")) {
        level(value, route(key, value.location(), variables), operations);
      } else if (METHODS.contains(key)) {
        operations.require(value);
      } else if (DIRECTIVES.contains(key)) {
        directive(key, value, variables);
      } else {
        throw value.refuse("unknown key '" + key + "'; " + LEVEL_FIX);
      }
    }
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
          throw new ManifestException(at, "the variable :" + name
              + " is already bound by an enclosing route; give this one another name");
        }
        variables.add(name);
      } else if (!LITERAL.matcher(segment).matches()) {
        throw new ManifestException(at, "'" + segment + "' is not a route segment; separate"
            + " segments with single slashes, each letters, digits, '_' or '-', or a variable"
            + " such as :id");
      }
    }
    return variables;
  }

  private static void directive(String key, Declared value, List<String> variables) {
    switch (key) {
      case "auth:role" -> roles(value);
      case "auth:anonymous" -> value.bool("write auth:anonymous: true or false");
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
    String fix = variables.isEmpty()
        ? "put auth:id under a route with a variable, such as /:id"
        : "name a variable of the enclosing routes: " + String.join(", ", variables);
    String name = value.text(fix);
    if (!variables.contains(name)) {
      throw value.refuse("'" + name + "' is not a variable of the enclosing routes; " + fix);
    }
  }

  private static void keyRule(Declared value) {
    String fix = "write io:idempotency-key: required (a request without the header is refused) or optional";
    if (!KEY_RULES.contains(value.text(fix))) throw value.refuse("'" + value.node().stringValue() + "' is not a rule; " + fix);
  }

  private static void properties(Declared value) {
    for (Declared item : value.items("list property names, such as [id, balance]")) {
      item.token(Token.PROPERTY_NAME);
    }
  }
}
