package io.toa4j.cli;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.manifest.Yaml;
import io.toa4j.runtime.Requests;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * YAML at the shell's edge: requests a person types, replies printed for a person to read (and for
 * a script to parse again). Thread-safe.
 */
final class YamlText {
  private static final YAMLMapper YAML =
      // YAML 1.2 as manifests read it: "{ input: 1, input: 2 }" is refused, a string of digits
      // printed (an id can be one) is quoted, so it stays a string when the output is read again
      YAMLMapper.builder(Yaml.factory().enable(YAMLWriteFeature.LITERAL_BLOCK_STYLE).build())
          .disable(
              DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // tree() says it in its own words
          .build();

  private static final String SHAPE = "write it as { query: { id: ... }, input: { ... } }";

  private YamlText() {}

  /**
   * Reads a request typed as YAML; blank text is the empty request.
   *
   * @throws Failure with code CONTRACT when the text is not YAML or not a request
   */
  static Request request(String text) {
    JsonNode tree = tree(text);
    JsonNode id = tree.path("query").path("id");
    if (id.isNumber()) throw new Failure(Failure.Code.CONTRACT, numericId(id));
    return Requests.parse(tree);
  }

  /**
   * An id of digits only, unquoted, is a number to YAML (and may lose leading zeros, or become a
   * float with an {@code e}): the one mistake the id's own message cannot explain.
   */
  private static String numericId(JsonNode id) {
    String digits = id.isIntegralNumber() ? id.bigIntegerValue().toString() : null;
    String example = digits != null && digits.length() == 32 ? "\"" + digits + "\"" : "\"...\"";
    return "query.id must be 32 hexadecimal characters as text, but YAML read "
        + id.asString()
        + " as a number;"
        + " quote the id as you typed it, such as { query: { id: "
        + example
        + " } }";
  }

  /** One YAML document as a tree; a missing node for blank text. */
  static JsonNode tree(String text) {
    try (JsonParser parser = YAML.createParser(text)) {
      JsonNode tree = YAML.readTree(parser);
      if (tree == null) return MissingNode.getInstance();
      if (parser.nextToken() != null) {
        throw new Failure(
            Failure.Code.CONTRACT, "the request holds more than one YAML document; " + SHAPE);
      }
      return tree;
    } catch (Yaml.ReadProblem e) {
      throw new Failure(
          Failure.Code.CONTRACT,
          "the request is refused: "
              + e.problem()
              + " at line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + "; "
              + e.advice());
    } catch (JacksonException e) {
      throw new Failure(
          Failure.Code.CONTRACT, "the request is not YAML: " + problem(e) + "; " + SHAPE);
    }
  }

  /** A value as YAML, ending with a line break: {@code null} for an empty output. */
  static String print(Optional<Object> value) {
    try {
      return YAML.writeValueAsString(value.orElse(null));
    } catch (JacksonException e) {
      throw new IllegalStateException(
          "A reply of plain values cannot be written as YAML: " + e.getOriginalMessage(), e);
    }
  }

  /** What the parser objects to and where, in one line (SnakeYAML's own message spans several). */
  private static String problem(JacksonException e) {
    Optional<Yaml.SyntaxError> syntax = Yaml.syntaxError(e);
    if (syntax.isPresent()) return syntax.get().toString();
    TokenStreamLocation at = e.getLocation();
    String message = e.getOriginalMessage().lines().findFirst().orElse("unreadable");
    return at == null
        ? message
        : message + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }
}
