package io.toa4j.manifest;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Reads one entry of a component's {@code operations}. */
final class OperationReader {
  static final List<String> KEYS =
      List.of(
          "type",
          "concurrency",
          "query",
          "once",
          "input",
          "output",
          "errors",
          "description",
          "forward",
          "external");

  /** What re-declaring {@code observe} or {@code enumerate} may state: its contract's schemas. */
  static final List<String> REDECLARED_KEYS = List.of("input", "output", "description");

  private static final String TYPES =
      Stream.of(OperationType.values())
          .map(OperationType::yamlName)
          .collect(Collectors.joining(", "));

  private static final String ONCE_FIX =
      "write once: true to use the context's inbox settings, once: <seconds> with 600 or more,"
          + " or once: { retention: <seconds>, remember: <seconds> }";

  private OperationReader() {}

  /** The declaration of operation {@code name}; its type's rules applied when it is declared. */
  static OperationDeclaration read(String name, Declared body, Optional<EntityDeclaration> entity) {
    boolean hasEntity = entity.isPresent();
    ConciseSchemas.References references =
        entity
            .map(e -> ConciseSchemas.References.entity(e.properties()))
            .orElseGet(() -> ConciseSchemas.References.none("the component has no entity"));
    Location path = body.location();
    Token.OPERATION_NAME.check(name, path);
    Declared keys = body.node().isNull() ? empty(path) : body;
    if (hasEntity && ComponentManifest.GENERIC_OPERATIONS.contains(name)) {
      if (name.equals("assign")) {
        throw body.refuse(
            "'assign' is given to every entity, with the entity's properties as its input; choose another"
                + " name for this operation (forward: assign gives it assign's implementation)");
      }
      String fix =
          "re-declaring "
              + name
              + " gives it an input or an output schema; write { input, output }";
      keys.mapping(fix);
      for (String key : keys.names()) {
        if (!REDECLARED_KEYS.contains(key)) {
          throw keys.child(key)
              .refuse(
                  "unknown key '"
                      + key
                      + "' for "
                      + name
                      + ", which runs as every entity's "
                      + name
                      + " does; "
                      + fix
                      + ", or give an operation of your own another name");
        }
      }
    } else {
      keys.mapping(
          KEYS, "write the operation's settings, such as { type: transition }, or nothing");
    }
    Optional<String> forward = forward(name, keys, hasEntity);
    Optional<OperationType> type = type(keys);
    if (forward.isPresent()) {
      OperationType forwarded = ComponentManifest.FORWARDABLE.get(forward.get());
      if (type.isPresent() && type.get() != forwarded) {
        throw keys.get("type")
            .orElseThrow()
            .refuse(
                forward.get()
                    + " is "
                    + OperationRules.withArticle(forwarded)
                    + ", not "
                    + OperationRules.withArticle(type.get())
                    + "; leave type out, or write type: "
                    + forwarded.yamlName());
      }
      type = Optional.of(forwarded);
    }
    Optional<Schema> input = keys.get("input").map(s -> JsonSchemas.compile(s, references));
    if (input.isEmpty()
        && forward.filter(f -> f.equals("transit") || f.equals("assign")).isPresent()) {
      input = Optional.of(entity.orElseThrow().changeset());
    }
    keys.get("input")
        .filter(i -> forward.filter(f -> f.equals("transit") || f.equals("assign")).isPresent())
        .ifPresent(i -> merged(i, entity.orElseThrow(), forward.get()));
    OperationDeclaration decl =
        new OperationDeclaration(
            name,
            path,
            type,
            concurrency(keys),
            keys.get("query").isEmpty() && forward.isPresent()
                ? genericQuery(forward.get())
                : query(keys),
            once(keys),
            input,
            keys.get("output").map(s -> JsonSchemas.compile(s, references)),
            errors(keys),
            forward,
            external(keys));
    keys.get("description").ifPresent(d -> d.text("write the description as a string"));
    decl.type().ifPresent(t -> OperationRules.check(decl, hasEntity, t, false));
    return decl;
  }

  /**
   * The generic implementation the operation runs: its own name when it is {@code transit}, or
   * re-declares {@code observe} or {@code enumerate}; what {@code forward} names; none otherwise.
   */
  private static Optional<String> forward(String name, Declared keys, boolean hasEntity) {
    Optional<Declared> declared = keys.get("forward");
    if (declared.isEmpty()) {
      boolean generic =
          name.equals("transit") || name.equals("observe") || name.equals("enumerate");
      return hasEntity && generic ? Optional.of(name) : Optional.empty();
    }
    String fix = "write forward: one of " + String.join(", ", FORWARD_ORDER);
    String target = declared.get().text(fix);
    if (!ComponentManifest.FORWARDABLE.containsKey(target)) {
      throw declared
          .get()
          .refuse(
              "'"
                  + target
                  + "' is not a generic operation; "
                  + fix
                  + ", or write a class for "
                  + name);
    }
    if (!hasEntity) {
      throw declared
          .get()
          .refuse(
              target
                  + " works on the entity, and this component declares none; declare an entity, or write a class for "
                  + name);
    }
    return Optional.of(target);
  }

  private static final List<String> FORWARD_ORDER =
      List.of("transit", "observe", "enumerate", "assign");

  /**
   * The query rule of a generic implementation where the declaration states none: {@code observe}
   * and {@code assign} name a record, {@code enumerate} may page, {@code transit} may create.
   */
  private static QueryRule genericQuery(String forward) {
    return forward.equals("observe") || forward.equals("assign")
        ? QueryRule.REQUIRED
        : QueryRule.OPTIONAL;
  }

  /**
   * Refuses an input that a merge into the record could not store: every property it declares must
   * be one of the entity's, and it may not admit others.
   */
  private static void merged(Declared input, EntityDeclaration entity, String forward) {
    JsonNode schema = input.node();
    if (!schema.isObject()) {
      return; // a concise form: checked as a schema; the record's schema checks what is merged
    }
    JsonNode properties = schema.path("properties");
    for (String property : properties.isObject() ? properties.propertyNames() : Set.<String>of()) {
      if (!entity.properties().has(property)) {
        throw input
            .child("properties")
            .child(property)
            .refuse(
                "'"
                    + property
                    + "' is not a property of the entity, and "
                    + forward
                    + " merges its input into the record;"
                    + " declare it under entity.properties, or remove it");
      }
    }
  }

  private static Optional<OperationType> type(Declared keys) {
    return keys.get("type").map(OperationReader::typeOf);
  }

  private static OperationType typeOf(Declared type) {
    String fix = "write one of " + TYPES + ", or leave type out to infer it from the class";
    String value = type.text(fix);
    for (OperationType candidate : OperationType.values()) {
      if (candidate.yamlName().equals(value)) {
        return candidate;
      }
    }
    throw type.refuse("'" + value + "' is not an operation type; " + fix);
  }

  private static Concurrency concurrency(Declared keys) {
    Optional<Declared> declared = keys.get("concurrency");
    if (declared.isEmpty()) {
      return Concurrency.NONE;
    }
    String fix = "write concurrency: retry to run again after a lost write, or none (the default)";
    String value = declared.get().text(fix);
    return switch (value) {
      case "none", "retry" -> Concurrency.valueOf(value.toUpperCase(Locale.ROOT));
      default -> throw declared.get().refuse("'" + value + "' is not a concurrency; " + fix);
    };
  }

  private static QueryRule query(Declared keys) {
    return keys.get("query")
        .map(q -> q.bool("write query: true (required), query: false (forbidden), or leave it out"))
        .map(required -> required ? QueryRule.REQUIRED : QueryRule.FORBIDDEN)
        .orElse(QueryRule.OPTIONAL);
  }

  /**
   * {@code external: true} (the default allowance of unknown outcomes), {@code false}, or {@code {
   * unknown: <n> }}.
   */
  private static OptionalInt external(Declared keys) {
    Optional<Declared> declared = keys.get("external");
    if (declared.isEmpty()) return OptionalInt.empty();
    String fix =
        "write external: true for an effect that calls an outside provider, or external: { unknown: <n> } with n from 1 to 100:"
            + " how many attempts may end with their outcome unknown before a delivery is parked";
    JsonNode value = declared.get().node();
    if (value.isBoolean())
      return value.booleanValue()
          ? OptionalInt.of(OperationDeclaration.UNKNOWN_OUTCOMES)
          : OptionalInt.empty();
    Declared settings = declared.get().mapping(List.of("unknown"), fix);
    long unknown = settings.require("unknown", fix).integer(fix);
    if (unknown < 1 || unknown > 100)
      throw settings.get("unknown").orElseThrow().refuse(unknown + " is out of range; " + fix);
    return OptionalInt.of((int) unknown);
  }

  private static Optional<Once> once(Declared keys) {
    Optional<Declared> declared = keys.get("once");
    if (declared.isEmpty()) {
      return Optional.empty();
    }
    JsonNode value = declared.get().node();
    if (value.isBoolean()) {
      return value.booleanValue() ? Optional.of(new Once(OptionalLong.empty())) : Optional.empty();
    }
    if (value.isObject()) {
      Declared windows = declared.get().mapping(List.of("retention", "remember"), ONCE_FIX);
      OptionalLong retention =
          seconds(
              windows.get("retention"),
              "or leave retention out to use the context's inbox.retention");
      OptionalLong remember =
          seconds(
              windows.get("remember"), "or leave remember out to use the context's inbox.remember");
      if (retention.isPresent()
          && remember.isPresent()
          && remember.getAsLong() < retention.getAsLong()) {
        throw windows
            .get("remember")
            .get()
            .refuse(
                remember.getAsLong()
                    + " is shorter than retention ("
                    + retention.getAsLong()
                    + "); a call is"
                    + " remembered at least as long as its answer is given: state "
                    + retention.getAsLong()
                    + " or more");
      }
      return Optional.of(new Once(retention, remember));
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw declared
          .get()
          .refuse(
              "expected true, a number of seconds or a mapping, found "
                  + Declared.describe(value)
                  + "; "
                  + ONCE_FIX);
    }
    return Optional.of(new Once(seconds(declared, "or true to use the context's inbox.retention")));
  }

  /** A window of {@code once}, in seconds, 600 or more; empty when left out. */
  private static OptionalLong seconds(Optional<Declared> declared, String otherwise) {
    if (declared.isEmpty()) {
      return OptionalLong.empty();
    }
    String fix = "state " + Once.MINIMUM_SECONDS + " or more, " + otherwise;
    long seconds = declared.get().integer(fix);
    if (seconds < Once.MINIMUM_SECONDS) {
      throw declared
          .get()
          .refuse(seconds + " is under " + Once.MINIMUM_SECONDS + " seconds; " + fix);
    }
    return OptionalLong.of(seconds);
  }

  private static Set<String> errors(Declared keys) {
    Optional<Declared> declared = keys.get("errors");
    if (declared.isEmpty()) {
      return Set.of();
    }
    Set<String> codes = new LinkedHashSet<>();
    for (Declared item : declared.get().items("list the codes, such as [INSUFFICIENT_FUNDS]")) {
      String code = item.token(Token.ERROR_CODE);
      if (!codes.add(code)) {
        throw item.refuse("the code " + code + " is listed twice; list each code once");
      }
    }
    return Collections.unmodifiableSet(codes);
  }

  private static Declared empty(Location at) {
    return new Declared(JsonNodeFactory.instance.objectNode(), at);
  }
}
