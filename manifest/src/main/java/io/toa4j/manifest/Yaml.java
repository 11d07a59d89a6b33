package io.toa4j.manifest;

import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLReadFeature;
import tools.jackson.dataformat.yaml.YAMLSchema;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import tools.jackson.dataformat.yaml.util.StringQuotingChecker;

/**
 * YAML as every part of toa4j reads and writes it: YAML 1.2 with its core schema. A manifest, a
 * request typed at the shell and a YAML body sent to the gateway read alike: {@code no} and
 * {@code yes} are strings, {@code 0777} is 777 ({@code 0o777} is the octal form), {@code ~} and
 * {@code null} are null, and a key that appears twice in one mapping is refused. Written YAML
 * quotes every string that would read back as something else (a string of digits stays a string).
 */
public final class Yaml {
  private Yaml() {}

  /** A factory builder with these settings, for a caller to add its own before {@code build()}. */
  public static YAMLFactoryBuilder factory() {
    return YAMLFactory.builder()
        .yamlSchema(YAMLSchema.CORE)
        // under the core schema Jackson reads 0777 as octal, as YAML 1.1 did; YAML 1.2 says 777
        .disable(YAMLReadFeature.PARSE_OCTAL_NUMBERS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
        .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
        .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
        .stringQuotingChecker(new CoreQuoting());
  }

  /** Also quotes the numbers only YAML 1.2 reads as numbers, such as {@code 0o17} and {@code 0x1F}. */
  private static final class CoreQuoting extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;
    private static final Pattern NUMBER = Pattern.compile("[-+]?(0o[0-7]+|0x[0-9a-fA-F]+)");

    @Override
    public boolean needToQuoteValue(String value) {
      return super.needToQuoteValue(value) || NUMBER.matcher(value).matches();
    }
  }

  /** Where the YAML parser found a syntax error and what it is, when the error carries its mark. */
  public record SyntaxError(String problem, int line, int column) {
    /** {@code problem at line L, column C}, in one line. */
    @Override
    public String toString() {
      return problem + " at line " + line + ", column " + column;
    }
  }

  /** The YAML parser's own account of a syntax error behind {@code e}, lines and columns from 1. */
  public static Optional<SyntaxError> syntaxError(JacksonException e) {
    if (e.getCause() instanceof MarkedYamlEngineException yaml && yaml.getProblemMark().isPresent()) {
      Mark mark = yaml.getProblemMark().get();
      String problem = yaml.getProblem() == null ? "not valid YAML" : yaml.getProblem();
      return Optional.of(new SyntaxError(problem, mark.getLine() + 1, mark.getColumn() + 1));
    }
    return Optional.empty();
  }
}
