package io.toa4j.http;

import io.toa4j.manifest.Surrogates;
import io.toa4j.manifest.Yaml;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.util.JsonParserDelegate;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The body formats: JSON and YAML, read by {@code content-type}, written by {@code accept}. */
enum Media {
  // What follows the value is checked here (read), to say where the value ends and what follows.
  JSON(
      "application/json",
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build()),
  YAML(
      "application/yaml",
      // YAML 1.2, as manifests and the command line read it
      YAMLMapper.builder(Yaml.factory().build())
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build());

  /**
   * A parser's reference to its input, such as {@code (start marker at [Source: ...; line: 1,
   * column: 1])}.
   */
  private static final Pattern SOURCE =
      Pattern.compile("\\s*\\([^()]*\\[Source:.*?\\]\\)|\\s*at \\[Source:.*?\\]");

  final String type;
  private final ObjectMapper mapper;

  Media(String type, ObjectMapper mapper) {
    this.type = type;
    this.mapper = mapper;
  }

  /** The format of a body by its {@code content-type}; 415 for any other. */
  static Media ofContent(String contentType) {
    String[] parts = contentType.split(";", -1);
    String bare = parts[0].trim().toLowerCase(Locale.ROOT);
    for (int i = 1; i < parts.length; i++) {
      String[] parameter = parts[i].split("=", 2);
      if (!parameter[0].trim().equalsIgnoreCase("charset")) continue;
      String charset = parameter.length < 2 ? "" : parameter[1].trim().replace("\"", "");
      if (!charset.equalsIgnoreCase("utf-8")) {
        throw new Problem(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            "charset "
                + charset
                + " is not accepted; bodies are UTF-8 (send charset=utf-8, or none)");
      }
    }
    switch (bare) {
      case "application/json":
        return JSON;
      case "application/yaml":
      case "application/x-yaml":
      case "text/yaml":
        return YAML;
      default:
        throw new Problem(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            "content-type " + bare + " is not accepted; send application/json or application/yaml");
    }
  }

  /**
   * The format of the answer by {@code accept}, in the order it lists; JSON when absent; 406 when
   * none fits.
   */
  static Media ofAccept(String accept) {
    if (accept == null || accept.isBlank()) return JSON;
    for (String part : accept.split(",")) {
      String bare = part.split(";", -1)[0].trim().toLowerCase(Locale.ROOT);
      if (bare.equals("application/json") || bare.equals("*/*") || bare.equals("application/*"))
        return JSON;
      if (bare.equals("application/yaml")
          || bare.equals("application/x-yaml")
          || bare.equals("text/yaml")) return YAML;
    }
    throw new Problem(
        406,
        "NOT_ACCEPTABLE",
        "accept "
            + accept
            + " names nothing this gateway writes; accept application/json or application/yaml");
  }

  /**
   * The body as one tree: UTF-8 throughout (an overlong form, a surrogate or a stray byte is
   * refused), one value, nothing after it (one YAML document).
   *
   * @throws Problem 400 saying what is wrong and where
   */
  JsonNode read(byte[] body) {
    String text = utf8(body, "the body");
    // YAML's parser refuses a lone surrogate itself (Yaml.ReadProblem)
    try (JsonParser parser =
        this == JSON
            ? new PairedSurrogates(mapper.createParser(text))
            : mapper.createParser(text)) {
      JsonNode tree = mapper.readTree(parser);
      if (tree == null) return MissingNode.getInstance();
      TokenStreamLocation end = parser.currentLocation();
      if (more(parser)) {
        throw new Problem(
            400,
            "MALFORMED",
            this == YAML
                ? "the body holds more than one YAML document (another starts after line "
                    + end.getLineNr()
                    + "); send one"
                : "the body has more after its JSON value, which ends at line "
                    + end.getLineNr()
                    + ", column "
                    + end.getColumnNr()
                    + "; send one value");
      }
      return tree;
    } catch (Yaml.ReadProblem | LoneSurrogate e) {
      throw new Problem(
          400, "MALFORMED", "the body is refused" + where(e) + ": " + e.getOriginalMessage());
    } catch (JacksonException e) {
      throw new Problem(
          400, "MALFORMED", "the body is not " + name() + where(e) + ": " + reason(e));
    }
  }

  /**
   * A JSON parser that refuses a text, a string or a property name, whose escapes write a lone
   * surrogate ({@link Surrogates}), where the text starts: Jackson reads {@code "x\udc00y"} as it
   * is, and offers no feature to refuse it.
   */
  private static final class PairedSurrogates extends JsonParserDelegate {
    PairedSurrogates(JsonParser parser) {
      super(parser);
    }

    @Override
    public JsonToken nextToken() {
      return checked(super.nextToken());
    }

    @Override
    public JsonToken nextValue() {
      return checked(super.nextValue());
    }

    @Override
    public String nextName() {
      String name = super.nextName();
      if (name != null) check(name);
      return name;
    }

    private JsonToken checked(JsonToken token) {
      if (token == JsonToken.VALUE_STRING || token == JsonToken.PROPERTY_NAME) check(getString());
      return token;
    }

    private void check(String text) {
      OptionalInt at = Surrogates.lone(text);
      if (at.isPresent()) {
        throw new LoneSurrogate(
            this,
            Surrogates.problem(text, at.getAsInt()) + "; " + Surrogates.ADVICE,
            currentTokenLocation());
      }
    }
  }

  private static final class LoneSurrogate extends StreamReadException {
    private static final long serialVersionUID = 1L;

    LoneSurrogate(JsonParser parser, String message, TokenStreamLocation at) {
      super(parser, message, at);
    }
  }

  /**
   * Whether anything but white space follows the value the parser has read: a token or text that is
   * none.
   */
  private static boolean more(JsonParser parser) {
    try {
      return parser.nextToken() != null;
    } catch (JacksonException e) {
      return true;
    }
  }

  /**
   * The bytes as UTF-8, strictly: the first byte that begins no valid sequence is a 400 naming it.
   *
   * @param what how the message names the text, such as "the body"
   */
  static String utf8(byte[] bytes, String what) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) result = decoder.flush(out);
    if (result.isError()) {
      int at = in.position();
      throw new Problem(
          400,
          "MALFORMED",
          what
              + " is not UTF-8: byte "
              + at
              + " (0x"
              + HexFormat.of().toHexDigits(bytes[at])
              + ") begins no valid UTF-8 sequence (overlong forms and surrogates are not UTF-8); send UTF-8");
    }
    return out.flip().toString();
  }

  private static String where(JacksonException e) {
    Optional<Yaml.SyntaxError> syntax = Yaml.syntaxError(e);
    if (syntax.isPresent())
      return " at line " + syntax.get().line() + ", column " + syntax.get().column();
    TokenStreamLocation at = e.getLocation();
    return at == null || at.getLineNr() < 1
        ? ""
        : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  /** What the parser found wrong, without its location dumps and names of its settings. */
  private static String reason(JacksonException e) {
    String reason;
    Optional<Yaml.SyntaxError> syntax = Yaml.syntaxError(e);
    if (syntax.isPresent()) {
      reason = syntax.get().problem();
    } else if (e instanceof StreamConstraintsException) {
      reason =
          "it is larger or nested deeper than the gateway reads ("
              + e.getOriginalMessage().replaceAll(", from `[^`]*`", "")
              + ")";
    } else {
      reason = String.valueOf(e.getOriginalMessage());
    }
    reason = SOURCE.matcher(reason).replaceAll("").lines().findFirst().orElse("").strip();
    return reason.isEmpty() || Problems.showsInternals(reason) ? "it cannot be parsed" : reason;
  }

  String write(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JacksonException e) {
      throw new IllegalStateException("An answer cannot be written as " + name(), e);
    }
  }
}
