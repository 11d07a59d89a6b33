package io.toa4j.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.runtime.Requests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * YAML at the shell's edge: requests a person types, replies printed for a person to read (and
 * for a script to parse again). Thread-safe.
 */
final class YamlText {
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          // a string of digits (an id can be one) stays a string when the output is read again
          .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
          .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
          // "{ input: 1, input: 2 }" is a typing mistake, not a request for the last one
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
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
    return "query.id must be 32 hexadecimal characters as text, but YAML read " + id.asText() + " as a number;"
        + " quote the id as you typed it, such as { query: { id: " + example + " } }";
  }

  /** One YAML document as a tree; a missing node for blank text. */
  static JsonNode tree(String text) {
    try (JsonParser parser = YAML.createParser(text)) {
      JsonNode tree = YAML.readTree(parser);
      if (tree == null) return MissingNode.getInstance();
      if (parser.nextToken() != null) {
        throw new Failure(Failure.Code.CONTRACT, "the request holds more than one YAML document; " + SHAPE);
      }
      return tree;
    } catch (JsonProcessingException e) {
      throw new Failure(Failure.Code.CONTRACT, "the request is not YAML: " + problem(e) + "; " + SHAPE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the request", e);
    }
  }

  /** A value as YAML, ending with a line break: {@code null} for an empty output. */
  static String print(Optional<Object> value) {
    try {
      return YAML.writeValueAsString(value.orElse(null));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A reply of plain values cannot be written as YAML: " + e.getOriginalMessage(), e);
    }
  }

  /** What the parser objects to and where, in one line (SnakeYAML's own message spans several). */
  private static String problem(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      Mark mark = marked.getProblemMark();
      return marked.getProblem() + " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }
    JsonLocation at = e.getLocation();
    String message = e.getOriginalMessage().lines().findFirst().orElse("unreadable");
    return at == null ? message : message + " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }
}
