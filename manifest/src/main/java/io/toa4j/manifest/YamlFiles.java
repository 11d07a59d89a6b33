package io.toa4j.manifest;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a YAML file into a tree, once. Refuses duplicate keys, and aliases ({@code *name}), which
 * Jackson would read as the alias's name rather than the anchored value. Thread-safe.
 */
final class YamlFiles {
  // The builder, unlike new YAMLFactory(), leaves EMPTY_STRING_AS_NULL off: `paid:` must be null.
  private static final YAMLFactory FACTORY =
      YAMLFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
          .build();
  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

  private static final Pattern DUPLICATE = Pattern.compile("^Duplicate field '(.*)'");

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

  /** The text's tree, named in messages as {@code origin}; an empty mapping when it holds nothing. */
  static Declared read(String text, Path origin) {
    Location whole = new Location(origin, "");
    try {
      return read(new java.io.StringReader(text), whole);
    } catch (IOException e) {
      throw new ManifestException(whole, "cannot be read (" + e + ")", e);
    }
  }

  private static Declared read(Reader reader, Location whole) throws IOException {
    try (JsonParser parser = new NoAliases(FACTORY.createParser(reader))) {
      JsonNode tree = MAPPER.readTree(parser);
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        tree = MAPPER.createObjectNode();
      }
      return new Declared(tree, whole);
    } catch (JsonProcessingException e) {
      throw notYaml(whole, e);
    }
  }

  private static ManifestException notYaml(Location whole, JsonProcessingException e) {
    Location at = new Location(whole.file(), pathOf(e));
    String line = "(line " + e.getLocation().getLineNr() + ")";
    if (e instanceof AliasFound alias) {
      return new ManifestException(at, "the alias *" + alias.anchor + " " + line
          + " is not supported; write the value out in full", e);
    }
    Matcher duplicate = DUPLICATE.matcher(e.getOriginalMessage());
    if (duplicate.find()) {
      return new ManifestException(at, "the key '" + duplicate.group(1)
          + "' appears twice in one mapping " + line + "; keep one of them", e);
    }
    return new ManifestException(whole, "not valid YAML: " + syntaxProblem(e), e);
  }

  /** The problem and its line and column, preferring the YAML parser's own mark. */
  private static String syntaxProblem(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
      Mark mark = yaml.getProblemMark();
      return yaml.getProblem()
          + " at line "
          + (mark.getLine() + 1)
          + ", column "
          + (mark.getColumn() + 1)
          + "; correct the syntax there (indent with spaces, close every bracket and quote)";
    }
    return e.getOriginalMessage().lines().findFirst().orElse("")
        + " at line "
        + e.getLocation().getLineNr()
        + ", column "
        + e.getLocation().getColumnNr()
        + "; correct the syntax there";
  }

  /** The YAML path the parser was at, such as {@code operations.credit.once}. */
  private static String pathOf(JsonProcessingException e) {
    if (!(e.getProcessor() instanceof JsonParser parser)) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    for (JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot(); ) {
      String step = c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.getCurrentName();
      path.insert(0, step);
      c = c.getParent();
    }
    return path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
  }

  /** Refuses an alias where a value is read (every value passes through {@code nextToken}). */
  private static final class NoAliases extends JsonParserDelegate {
    private final YAMLParser yaml;

    NoAliases(YAMLParser yaml) {
      super(yaml);
      this.yaml = yaml;
    }

    @Override
    public JsonToken nextToken() throws IOException {
      JsonToken token = super.nextToken();
      if (yaml.isCurrentAlias()) {
        throw new AliasFound(this, yaml.getText()); // an alias's text is its anchor's name
      }
      return token;
    }
  }

  private static final class AliasFound extends JsonParseException {
    private static final long serialVersionUID = 1L;
    private final String anchor;

    AliasFound(JsonParser parser, String anchor) {
      super(parser, "alias *" + anchor);
      this.anchor = anchor;
    }
  }
}
