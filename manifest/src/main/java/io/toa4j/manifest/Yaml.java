package io.toa4j.manifest;

import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLReadFeature;
import tools.jackson.dataformat.yaml.YAMLSchema;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import tools.jackson.dataformat.yaml.util.StringQuotingChecker;

/**
 * YAML as every part of toa4j reads and writes it: YAML 1.2 with its core schema. A manifest, a
 * request typed at the shell and a YAML body sent to the gateway read alike: {@code no} and {@code
 * yes} are strings, {@code 0777} is 777 ({@code 0o777} is the octal form), {@code ~} and {@code
 * null} are null, and a key that appears twice in one mapping is refused. Written YAML quotes every
 * string that would read back as something else (a string of digits stays a string).
 *
 * <p>An alias ({@code *base}) reads as the value its anchor ({@code &base}) stands for, and a merge
 * key ({@code <<: *base}, {@code <<: [*a, *b]}) brings the merged mappings' keys into its mapping,
 * where the keys the mapping writes itself win. A document whose aliases repeat more than {@link
 * #MAX_ALIASED_VALUES} values is refused, so a short text cannot stand for a huge one.
 */
public final class Yaml {
  /**
   * How many values the aliases of one document may repeat in all: an alias repeats each key,
   * scalar, list and mapping of its anchored value, nested aliases included.
   */
  public static final int MAX_ALIASED_VALUES = 100_000;

  private Yaml() {}

  /** A factory builder with these settings, for a caller to add its own before {@code build()}. */
  public static YAMLFactoryBuilder factory() {
    return AliasingYamlFactory.aliasingBuilder()
        .yamlSchema(YAMLSchema.CORE)
        // under the core schema Jackson reads 0777 as octal, as YAML 1.1 did; YAML 1.2 says 777
        .disable(YAMLReadFeature.PARSE_OCTAL_NUMBERS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
        .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
        .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
        .stringQuotingChecker(new CoreQuoting());
  }

  /**
   * Also quotes the numbers only YAML 1.2 reads as numbers, such as {@code 0o17} and {@code 0x1F}.
   */
  private static final class CoreQuoting extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;
    private static final Pattern NUMBER = Pattern.compile("[-+]?(0o[0-7]+|0x[0-9a-fA-F]+)");

    @Override
    public boolean needToQuoteValue(String value) {
      return super.needToQuoteValue(value) || NUMBER.matcher(value).matches();
    }
  }

  /**
   * A value that is well-formed YAML and cannot be read all the same: an alias naming no anchor
   * above it, a merge key whose value is no mapping, a document expanding past {@link
   * #MAX_ALIASED_VALUES}, a text holding a lone surrogate ({@link Surrogates}). Its location is the
   * alias's, the merge key's or the text's; its message says what is wrong and what to do, in one
   * line: {@code problem; advice}.
   */
  public static final class ReadProblem extends StreamReadException {
    private static final long serialVersionUID = 1L;
    private final String problem;
    private final String advice;
    private final boolean inMerge;

    ReadProblem(
        JsonParser parser, String problem, String advice, TokenStreamLocation at, boolean inMerge) {
      super(parser, problem + "; " + advice, at);
      this.problem = problem;
      this.advice = advice;
      this.inMerge = inMerge;
    }

    /**
     * Whether the problem is in a merge key or its value: then it belongs to the mapping the parser
     * is in, not to the key the parser read last.
     */
    public boolean inMerge() {
      return inMerge;
    }

    /** What is wrong, such as {@code the alias *base names no anchor above it}. */
    public String problem() {
      return problem;
    }

    /** What to do about it. */
    public String advice() {
      return advice;
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
    if (e.getCause() instanceof MarkedYamlEngineException yaml
        && yaml.getProblemMark().isPresent()) {
      Mark mark = yaml.getProblemMark().get();
      String problem = yaml.getProblem() == null ? "not valid YAML" : yaml.getProblem();
      return Optional.of(new SyntaxError(problem, mark.getLine() + 1, mark.getColumn() + 1));
    }
    return Optional.empty();
  }
}
