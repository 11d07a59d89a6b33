package io.toa4j.manifest;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLReadFeature;

/**
 * Reads a YAML 1.2 file into a tree, once (so {@code no} is a string and {@code 0777} is 777), with
 * aliases and merge keys resolved as {@link Yaml} reads them. Refuses duplicate keys, and aliases
 * that name no anchor or expand the document too far, with the YAML path and line. Thread-safe.
 */
final class YamlFiles {
  // `paid:` must be null, not the empty string
  private static final YAMLFactory FACTORY =
      Yaml.factory().enable(YAMLReadFeature.EMPTY_STRING_AS_NULL).build();
  private static final ObjectMapper MAPPER = new YAMLMapper(FACTORY);

  private static final Pattern DUPLICATE =
      Pattern.compile("^Duplicate (?:field|Object property) ['\"](.*)['\"]");

  private YamlFiles() {}

  /** The file's tree; an empty mapping when the file holds nothing. The file must exist. */
  static Declared read(Path file) {
    Location whole = new Location(file, "");
    try (Reader reader = Files.newBufferedReader(file)) {
      return read(reader, whole);
    } catch (IOException e) {
      throw new ManifestException(
          whole, "cannot be read (" + e + "); check that the file is readable", e);
    }
  }

  /**
   * The text's tree, named in messages as {@code origin}; an empty mapping when it holds nothing.
   */
  static Declared read(String text, Path origin) {
    Location whole = new Location(origin, "");
    try {
      return read(new java.io.StringReader(text), whole);
    } catch (IOException e) {
      throw new ManifestException(whole, "cannot be read (" + e + ")", e);
    }
  }

  private static Declared read(Reader reader, Location whole) throws IOException {
    try (JsonParser parser = MAPPER.createParser(reader)) {
      JsonNode tree = MAPPER.readTree(parser);
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        tree = MAPPER.createObjectNode();
      }
      return new Declared(tree, whole);
    } catch (JacksonException e) {
      throw notYaml(whole, e);
    }
  }

  /**
   * The line where the YAML path's key (or list item) is written, read again from the file; empty
   * when the location is not in a file, or reached only through an alias.
   */
  static OptionalInt line(Location at) {
    if (at.yamlPath().isEmpty() || !Files.isRegularFile(at.file())) {
      return OptionalInt.empty();
    }
    try (Reader reader = Files.newBufferedReader(at.file());
        JsonParser parser = MAPPER.createParser(reader)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
          continue;
        }
        TokenStreamContext context = parser.streamReadContext();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
          context = context.getParent();
        }
        if (pathOf(context).equals(at.yamlPath())) {
          return OptionalInt.of(parser.currentTokenLocation().getLineNr());
        }
      }
    } catch (IOException | JacksonException e) {
      return OptionalInt.empty(); // the file was read before; a line is a courtesy
    }
    return OptionalInt.empty();
  }

  private static String pathOf(TokenStreamContext innermost) {
    StringBuilder path = new StringBuilder();
    for (TokenStreamContext c = innermost; c != null && !c.inRoot(); c = c.getParent()) {
      path.insert(0, c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.currentName());
    }
    return path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
  }

  private static ManifestException notYaml(Location whole, JacksonException e) {
    Location at = new Location(whole.file(), pathOf(e));
    String line = "(line " + e.getLocation().getLineNr() + ")";
    if (e instanceof Yaml.ReadProblem alias) {
      return new ManifestException(at, alias.problem() + " " + line + "; " + alias.advice(), e);
    }
    Matcher duplicate = DUPLICATE.matcher(e.getOriginalMessage());
    if (duplicate.find()) {
      return new ManifestException(
          at,
          "the key '"
              + duplicate.group(1)
              + "' appears twice in one mapping "
              + line
              + "; keep one of them",
          e);
    }
    return new ManifestException(whole, "not valid YAML: " + syntaxProblem(e), e);
  }

  /** The problem and its line and column, preferring the YAML parser's own mark. */
  private static String syntaxProblem(JacksonException e) {
    Optional<Yaml.SyntaxError> syntax = Yaml.syntaxError(e);
    if (syntax.isPresent()) {
      return syntax.get()
          + "; correct the syntax there (indent with spaces, close every bracket and quote)";
    }
    return e.getOriginalMessage().lines().findFirst().orElse("")
        + " at line "
        + e.getLocation().getLineNr()
        + ", column "
        + e.getLocation().getColumnNr()
        + "; correct the syntax there";
  }

  /**
   * The YAML path the parser was at, such as {@code operations.credit.once}. A read problem is met
   * before the parser reads the value (an alias, a text): in a list it is the next item; at a merge
   * key it is the mapping's, not the key's read last.
   */
  private static String pathOf(JacksonException e) {
    if (!(e.processor() instanceof JsonParser parser)) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    TokenStreamContext innermost = parser.streamReadContext();
    for (TokenStreamContext c = innermost; c != null && !c.inRoot(); c = c.getParent()) {
      if (c == innermost && e instanceof Yaml.ReadProblem alias) {
        if (c.inArray()) {
          path.insert(0, "[" + c.getEntryCount() + "]");
        } else if (!alias.inMerge() && c.currentName() != null) {
          path.insert(0, "." + c.currentName());
        }
        continue;
      }
      path.insert(0, c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.currentName());
    }
    return path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
  }
}
