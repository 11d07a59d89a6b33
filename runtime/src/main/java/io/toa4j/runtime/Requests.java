package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Request;
import io.toa4j.manifest.QueryRule;
import io.toa4j.manifest.Violation;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests from the outside, read and checked: the shape {@code { query, input }}, the query's
 * fields, and a call's fit with its operation's contract. Every refusal is a {@link
 * Failure.Code#CONTRACT} failure that says what is wrong and where.
 */
public final class Requests {
  private static final Pattern ID = Pattern.compile("[0-9a-fA-F]{32}");
  private static final Set<String> REQUEST_KEYS = Set.of("query", "input");
  private static final Set<String> QUERY_KEYS =
      Set.of("id", "version", "limit", "omit", "criteria", "sort");
  private static final String QUERY_FIELDS = "id, version, limit, omit, criteria or sort";

  /** The longest criteria or sort a query may carry, in characters. */
  static final int MAX_QUERY_TEXT = 2048;

  private Requests() {}

  /**
   * Reads a request given as a tree, such as the YAML of {@code toa call}: an object with an
   * optional {@code query} ({@code id}, {@code version}, {@code limit}, {@code omit}, {@code
   * criteria}, {@code sort}) and an optional {@code input}.
   *
   * @throws Failure with code CONTRACT when the tree is not such a request
   */
  public static Request parse(JsonNode tree) {
    if (tree == null || tree.isMissingNode() || tree.isNull()) return Request.empty();
    if (!tree.isObject()) {
      throw contract(
          "a request is a map with query and input, such as { query: { id: ... }, input: { ... } }; got "
              + kind(tree));
    }
    for (String key : tree.propertyNames()) {
      if (!REQUEST_KEYS.contains(key))
        throw contract("request." + key + " is not a request field; use query and input");
    }
    JsonNode input = tree.path("input");
    return new Request(
        query(tree.get("query")),
        input.isMissingNode() || input.isNull() ? Optional.empty() : Optional.of(input));
  }

  private static Optional<Query> query(JsonNode tree) {
    if (tree == null || tree.isNull()) return Optional.empty();
    if (!tree.isObject())
      throw contract("query is a map with " + QUERY_FIELDS + "; got " + kind(tree));
    for (String key : tree.propertyNames()) {
      if (!QUERY_KEYS.contains(key))
        throw contract("query." + key + " is not a query field; use " + QUERY_FIELDS);
    }
    Optional<String> id = Optional.empty();
    JsonNode idNode = tree.get("id");
    if (idNode != null) {
      if (!idNode.isString() || !ID.matcher(idNode.asString()).matches()) {
        throw contract("query.id must be 32 hexadecimal characters; got " + idNode);
      }
      id = Optional.of(idNode.asString().toLowerCase(Locale.ROOT));
    }
    return Optional.of(
        new Query(
            id,
            count(tree, "version"),
            count(tree, "limit"),
            count(tree, "omit"),
            text(tree, "criteria"),
            text(tree, "sort")));
  }

  private static Optional<String> text(JsonNode query, String key) {
    JsonNode node = query.get(key);
    if (node == null || node.isNull()) return Optional.empty();
    if (!node.isString() || node.asString().isBlank())
      throw contract("query." + key + " is a text; got " + kind(node));
    if (node.asString().length() > MAX_QUERY_TEXT) {
      throw contract(
          "query."
              + key
              + " is "
              + node.asString().length()
              + " characters long; at most "
              + MAX_QUERY_TEXT);
    }
    return Optional.of(node.asString());
  }

  private static OptionalLong count(JsonNode query, String key) {
    JsonNode node = query.get(key);
    if (node == null) return OptionalLong.empty();
    if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 0) {
      throw contract("query." + key + " must be a whole number, 0 or more; got " + node);
    }
    return OptionalLong.of(node.asLong());
  }

  /**
   * The call with its input schema's defaults given to the input's missing properties (see
   * docs/manifest.md, "Defaults"); the call itself when it has no input or nothing is missing.
   */
  static Invocation withDefaults(Operation operation, Invocation call) {
    Optional<io.toa4j.manifest.Schema> schema = operation.declaration().input();
    if (schema.isEmpty() || call.input().isMissingNode() || call.input().isNull()) return call;
    JsonNode filled = schema.get().withDefaults(call.input());
    return filled == call.input() ? call : new Invocation(call.query(), filled, call.identity());
  }

  /** Checks a call against its operation: the query rule, the query's fields, the input schema. */
  static void check(Component component, Operation operation, Invocation call) {
    String endpoint = component.label() + "." + operation.name();
    QueryRule rule = operation.declaration().query();
    if (rule == QueryRule.REQUIRED && call.query().isEmpty())
      throw contract(endpoint + " requires a query, such as { query: { id: ... } }");
    if (rule == QueryRule.FORBIDDEN && call.query().isPresent())
      throw contract(endpoint + " takes no query");
    call.query().ifPresent(q -> checkQuery(component, endpoint, operation, q));
    Optional<io.toa4j.manifest.Schema> schema = operation.declaration().input();
    boolean hasInput = !call.input().isMissingNode() && !call.input().isNull();
    if (schema.isEmpty()) {
      if (hasInput) throw contract(endpoint + " takes no input");
      return;
    }
    if (!hasInput) throw contract(endpoint + " requires an input");
    List<Violation> violations = schema.get().validate(call.input());
    if (!violations.isEmpty())
      throw contract(
          "the input of " + endpoint + " does not fit its schema: " + Engine.describe(violations));
  }

  private static void checkQuery(
      Component component, String endpoint, Operation operation, Query query) {
    if (query.criteria().isPresent() || query.sort().isPresent()) {
      if (component.entity().isEmpty())
        throw contract(endpoint + " has no records to select: its query takes no criteria or sort");
      Selections.check(component.label(), component.entity().get(), query);
    }
    boolean enumerating = operation.generic() && operation.implementation().equals("enumerate");
    if (enumerating) {
      if (query.id().isPresent() || query.version().isPresent()) {
        throw contract(
            endpoint + " takes criteria, sort, limit and omit in its query, not id or version");
      }
      return;
    }
    if (query.limit().isPresent() || query.omit().isPresent()) {
      throw contract(
          endpoint
              + " acts on one record: its query takes id or criteria (and sort), and version; not limit or omit");
    }
    if (query.criteria().isPresent() || query.sort().isPresent()) {
      // the first record the criteria find in the sort's order; a sort alone, the first of all
      if (query.id().isPresent())
        throw contract(
            endpoint + ": a query names its record by id or by criteria and sort, not both");
      return;
    }
    if (query.id().isEmpty())
      throw contract(
          endpoint + ": query.id, query.criteria or query.sort is required when there is a query");
    if (!ID.matcher(query.id().get()).matches()) {
      throw contract(
          endpoint
              + ": query.id must be 32 hexadecimal characters; got '"
              + query.id().get()
              + "'");
    }
  }

  /**
   * Checks criteria and a sort against a component's entity, as a call's query would be read.
   *
   * @throws Failure with code CONTRACT naming what does not fit, also when the component has no
   *     entity
   */
  public static void checkSelection(
      io.toa4j.manifest.ComponentManifest component,
      Optional<String> criteria,
      Optional<String> sort) {
    if (criteria.isEmpty() && sort.isEmpty()) return;
    if (component.entity().isEmpty())
      throw contract(component.label() + " has no entity: there are no records to select or sort");
    Query query =
        new Query(
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            criteria,
            sort);
    Selections.check(component.label(), component.entity().get(), query);
  }

  /**
   * The properties criteria compare, in the order they are named. @throws Failure CONTRACT when
   * they are not RSQL
   */
  public static java.util.Set<String> criteriaProperties(String criteria) {
    return Selections.properties(criteria);
  }

  /** The input of a request as a tree: a missing node when it has none. */
  static JsonNode input(Request request) {
    return request
        .input()
        .map(i -> i instanceof JsonNode n ? n : Binding.tree(i))
        .orElse(MissingNode.getInstance());
  }

  /** A request as a tree {@code { query, input }}, the form {@link #parse} reads. */
  public static ObjectNode tree(Request request) {
    var tree = Binding.VALUES.createObjectNode();
    request
        .query()
        .ifPresent(
            q -> {
              var query = tree.putObject("query");
              q.id().ifPresent(id -> query.put("id", id));
              q.version().ifPresent(v -> query.put("version", v));
              q.limit().ifPresent(l -> query.put("limit", l));
              q.omit().ifPresent(o -> query.put("omit", o));
              q.criteria().ifPresent(c -> query.put("criteria", c));
              q.sort().ifPresent(o -> query.put("sort", o));
            });
    JsonNode input = input(request);
    if (!input.isMissingNode()) tree.set("input", input);
    return tree;
  }

  static Failure contract(String message) {
    return new Failure(Failure.Code.CONTRACT, message);
  }

  private static String kind(JsonNode node) {
    return node.isArray()
        ? "a list"
        : node.isString()
            ? "the text " + node
            : node.getNodeType().toString().toLowerCase(Locale.ROOT) + " " + node;
  }
}
