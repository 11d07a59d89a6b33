package io.toa4j.manifest;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;

/**
 * JSON Schema draft 2020-12 over networknt: translates a manifest's concise schemas, refuses
 * keywords outside draft 2020-12 (networknt would only log them and accept anything), checks schema
 * fragments against the meta-schema and compiles them once, at load. Nothing is fetched over the
 * network: the meta-schema ships with the library, and a {@code $ref} to a remote document is
 * refused. Thread- safe.
 */
final class JsonSchemas {
  private static final SpecificationVersion DRAFT = SpecificationVersion.DRAFT_2020_12;

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(
          DRAFT,
          registry ->
              registry
                  .schemaLoader(loader -> loader.fetchRemoteResources(false))
                  .schemaRegistryConfig(
                      SchemaRegistryConfig.builder()
                          .pathType(PathType.JSON_POINTER)
                          .locale(Locale.ENGLISH)
                          .build()));

  private static final com.networknt.schema.Schema META = metaSchema();

  private static final String FIX =
      "correct it to fit JSON Schema draft 2020-12, such as { type: integer, minimum: 0 }";

  private JsonSchemas() {}

  /**
   * The fragment compiled: a concise schema translated, or a mapping that is a valid draft 2020-12
   * schema using only its keywords.
   */
  static Schema compile(Declared fragment, ConciseSchemas.References references) {
    return compile(expand(fragment, references), fragment.location());
  }

  /** The fragment as JSON Schema, refused where it is neither concise nor valid JSON Schema. */
  static JsonNode expand(Declared fragment, ConciseSchemas.References references) {
    if (fragment.node().isNull()) {
      throw fragment.refuse(
          "expected a schema, found nothing; write a type name such as string,"
              + " a concise mapping such as { limit: number }, or a JSON Schema mapping such as"
              + " { type: string }");
    }
    return ConciseSchemas.expand(fragment, references);
  }

  /**
   * Refuses the fragment at the first key that is not a draft 2020-12 keyword, or at the first
   * place where it is not a valid draft 2020-12 schema.
   */
  static void check(Declared fragment) {
    fragment.mapping("write a JSON Schema as a mapping, such as { type: string }");
    SchemaKeywords.check(fragment);
    List<Error> errors = META.validate(fragment.node());
    if (!errors.isEmpty()) {
      Error first = errors.get(0);
      String pointer = first.getInstanceLocation().toString();
      throw new ManifestException(
          fragment.at(pointer),
          Declared.describe(first.getInstanceNode())
              + " is not valid JSON Schema here: "
              + first.getMessage()
              + "; "
              + FIX);
    }
    SchemaDefaults.check(fragment, fragment.node());
  }

  /** The schema compiled, refused at the location when it cannot be (an unresolvable $ref). */
  static Schema compile(JsonNode source, Location at) {
    JsonNode frozen = source.deepCopy();
    try {
      com.networknt.schema.Schema compiled = REGISTRY.getSchema(frozen);
      compiled.initializeValidators();
      return new CompiledSchema(frozen, compiled);
    } catch (SchemaException e) {
      throw new ManifestException(at, "cannot be compiled as a JSON Schema: " + reason(e), e);
    }
  }

  /** Why networknt could not compile a schema, with the way out. */
  private static String reason(SchemaException e) {
    if (e.getCause() instanceof PatternSyntaxException pattern) {
      return "'"
          + pattern.getPattern()
          + "' is not a regular expression ("
          + pattern.getDescription()
          + "); write a valid one";
    }
    if (e.getCause() instanceof IOException missing) {
      return missing.getMessage()
          + " cannot be loaded; refer only to definitions inside the"
          + " fragment, such as $ref: '#/$defs/amount'";
    }
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return message.lines().findFirst().orElse(message)
        + "; refer only to definitions inside the fragment, such as $ref: '#/$defs/amount'";
  }

  private static com.networknt.schema.Schema metaSchema() {
    com.networknt.schema.Schema meta = REGISTRY.getSchema(SchemaLocation.of(DRAFT.getDialectId()));
    meta.initializeValidators();
    return meta;
  }
}
