package io.toa4j.runtime;

import cz.jirutka.rsql.parser.RSQLParser;
import cz.jirutka.rsql.parser.RSQLParserException;
import cz.jirutka.rsql.parser.ast.AndNode;
import cz.jirutka.rsql.parser.ast.ComparisonNode;
import cz.jirutka.rsql.parser.ast.LogicalNode;
import cz.jirutka.rsql.parser.ast.Node;
import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.manifest.EntityDeclaration;
import io.toa4j.spi.Criterion;
import io.toa4j.spi.Criterion.Operator;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Selection.Field;
import io.toa4j.spi.Selection.Kind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A query's {@code criteria} and {@code sort}, written as Toa writes them, read against a
 * component's entity into a {@link Selection} its store answers.
 *
 * <p>Criteria are RSQL ({@code ==}, {@code !=}, {@code <} or {@code =lt=}, {@code <=} or {@code
 * =le=}, {@code >} or {@code =gt=}, {@code >=} or {@code =ge=}, {@code =in=}, {@code =out=}; {@code
 * ;} and, {@code ,} or, parentheses) over the entity's top-level properties and {@code id}, {@code
 * VERSION}, {@code CREATED}, {@code UPDATED}. Each value is read as its property's type says (a
 * number, {@code true}/{@code false}, a text), so {@code rank==10} compares numbers. A sort is
 * properties separated by {@code ;}, each with an optional {@code :asc} (the default) or {@code
 * :desc}. Anything else is a {@link Failure.Code#CONTRACT} failure naming what and where.
 */
final class Selections {
  private static final RSQLParser RSQL = new RSQLParser();
  private static final Pattern SORT =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,31})(?::(asc|desc))?");
  private static final Map<String, Operator> OPERATORS =
      Map.of(
          "==",
          Operator.EQ,
          "!=",
          Operator.NE,
          "=lt=",
          Operator.LT,
          "=le=",
          Operator.LE,
          "=gt=",
          Operator.GT,
          "=ge=",
          Operator.GE,
          "=in=",
          Operator.IN,
          "=out=",
          Operator.OUT);
  private static final Map<String, Kind> SYSTEM =
      Map.of(
          "id", Kind.TEXT, "VERSION", Kind.NUMBER, "CREATED", Kind.NUMBER, "UPDATED", Kind.NUMBER);

  private Selections() {}

  /** The selection of the query's criteria and sort, with this window. */
  static Selection of(
      String component, EntityDeclaration entity, Query query, long limit, long omit) {
    Optional<Criterion> criteria = query.criteria().map(c -> criteria(component, entity, c));
    List<Selection.Order> sort =
        query.sort().map(s -> sort(component, entity, s)).orElse(List.of());
    return new Selection(criteria, sort, limit, omit);
  }

  /** Checks the query's criteria and sort against the entity, as {@link #of} reads them. */
  static void check(String component, EntityDeclaration entity, Query query) {
    of(component, entity, query, 1, 0);
  }

  private static Criterion criteria(String component, EntityDeclaration entity, String text) {
    return criterion(component, entity, parse(text), text);
  }

  /**
   * How deep criteria may nest parentheses: more than any condition needs, little enough for the
   * parser's stack.
   */
  static final int MAX_DEPTH = 32;

  private static Node parse(String text) {
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(' && ++depth > MAX_DEPTH)
        throw contract("query.criteria nests parentheses deeper than " + MAX_DEPTH);
      if (c == ')') depth--;
    }
    try {
      return RSQL.parse(text);
    } catch (RSQLParserException e) {
      throw contract("query.criteria '" + text + "' is not RSQL: " + reason(e));
    }
  }

  /** The properties the criteria compare, in the order they are named. */
  static Set<String> properties(String text) {
    Set<String> names = new LinkedHashSet<>();
    collect(parse(text), names);
    return names;
  }

  private static void collect(Node node, Set<String> names) {
    if (node instanceof LogicalNode logical)
      logical.getChildren().forEach(child -> collect(child, names));
    else names.add(((ComparisonNode) node).getSelector());
  }

  private static String reason(RSQLParserException e) {
    String message = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
    if (message == null) return "it cannot be read";
    // the parser lists every token it could have expected: the first line says where it stopped
    return message.lines().findFirst().orElse(message).trim();
  }

  private static Criterion criterion(
      String component, EntityDeclaration entity, Node node, String text) {
    if (node instanceof LogicalNode logical) {
      List<Criterion> parts = new ArrayList<>();
      for (Node child : logical.getChildren()) parts.add(criterion(component, entity, child, text));
      return logical instanceof AndNode ? new Criterion.All(parts) : new Criterion.Any(parts);
    }
    ComparisonNode comparison = (ComparisonNode) node;
    Field field = field(component, entity, comparison.getSelector(), "query.criteria");
    String symbol = comparison.getOperator().getSymbol();
    Operator operator = OPERATORS.get(symbol);
    if (operator == null)
      throw contract(
          "query.criteria: "
              + symbol
              + " is not a comparison; use ==, !=, <, <=, >, >=, =in= or =out=");
    List<Object> values = new ArrayList<>();
    for (String argument : comparison.getArguments()) values.add(value(field, argument));
    if (operator != Operator.IN && operator != Operator.OUT && values.size() != 1) {
      throw contract(
          "query.criteria: "
              + field.name()
              + symbol
              + " compares with one value; got "
              + values.size());
    }
    return new Criterion.Compare(field, operator, values);
  }

  private static List<Selection.Order> sort(
      String component, EntityDeclaration entity, String text) {
    List<Selection.Order> orders = new ArrayList<>();
    for (String step : text.split(";")) {
      if (step.isBlank()) continue;
      var m = SORT.matcher(step.trim());
      if (!m.matches()) {
        throw contract(
            "query.sort: '"
                + step.trim()
                + "' is not a sort step; write a property with :asc or :desc, such as rank:desc");
      }
      orders.add(
          new Selection.Order(
              field(component, entity, m.group(1), "query.sort"), "desc".equals(m.group(2))));
    }
    if (orders.isEmpty())
      throw contract(
          "query.sort is empty; write properties separated by ;, such as rank:desc;name");
    return orders;
  }

  private static Field field(
      String component, EntityDeclaration entity, String name, String where) {
    Kind system = SYSTEM.get(name);
    if (system != null) return new Field(name, system);
    JsonNode schema = entity.properties().get(name);
    if (schema == null) {
      List<String> names = new ArrayList<>(SYSTEM.keySet().stream().sorted().toList());
      entity.properties().propertyNames().forEach(names::add);
      throw contract(
          where
              + ": "
              + component
              + " has no property '"
              + name
              + "'; its properties are "
              + names);
    }
    return kind(schema)
        .map(kind -> new Field(name, kind))
        .orElseThrow(
            () ->
                contract(
                    where
                        + ": "
                        + component
                        + "'s property '"
                        + name
                        + "' is not a text, a number or a boolean; criteria and sort compare those only"));
  }

  /** What the property's schema says its values are, when they are of one comparable kind. */
  private static Optional<Kind> kind(JsonNode schema) {
    JsonNode type = schema.get("type");
    if (type != null && type.isString()) return kind(type.asString());
    if (type != null && type.isArray()) {
      List<Kind> kinds = new ArrayList<>();
      for (JsonNode t : type)
        if (!t.asString().equals("null"))
          kind(t.asString()).ifPresentOrElse(kinds::add, () -> kinds.add(null));
      return kinds.size() == 1 && kinds.get(0) != null
          ? Optional.of(kinds.get(0))
          : Optional.empty();
    }
    JsonNode values = schema.has("enum") ? schema.get("enum") : null;
    if (values != null && values.isArray() && !values.isEmpty()) {
      boolean texts = true;
      boolean numbers = true;
      for (JsonNode v : values) {
        texts &= v.isString();
        numbers &= v.isNumber();
      }
      return texts ? Optional.of(Kind.TEXT) : numbers ? Optional.of(Kind.NUMBER) : Optional.empty();
    }
    return Optional.empty();
  }

  private static Optional<Kind> kind(String type) {
    return switch (type) {
      case "string" -> Optional.of(Kind.TEXT);
      case "integer", "number" -> Optional.of(Kind.NUMBER);
      case "boolean" -> Optional.of(Kind.BOOLEAN);
      default -> Optional.empty();
    };
  }

  private static Object value(Field field, String argument) {
    return switch (field.kind()) {
      case TEXT -> argument;
      case BOOLEAN ->
          switch (argument) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default ->
                throw contract(
                    "query.criteria: "
                        + field.name()
                        + " is a boolean; got '"
                        + argument
                        + "', write true or false");
          };
      case NUMBER -> {
        BigDecimal number;
        try {
          number = new BigDecimal(argument);
        } catch (NumberFormatException e) {
          throw contract(
              "query.criteria: " + field.name() + " is a number; got '" + argument + "'");
        }
        // what both engines compare exactly: no more digits or a larger exponent than a double's
        if (number.precision() > 40 || Math.abs(number.precision() - number.scale()) > 300) {
          throw contract(
              "query.criteria: "
                  + field.name()
                  + ": the number '"
                  + argument
                  + "' is out of range; at most 40 digits, magnitude below 1e300");
        }
        yield number;
      }
    };
  }

  private static Failure contract(String message) {
    return new Failure(Failure.Code.CONTRACT, message);
  }
}
