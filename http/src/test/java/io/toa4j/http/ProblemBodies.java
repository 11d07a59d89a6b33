package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What every refusal's body must be: an RFC 9457 problem with the gateway's code, and no internals.
 */
final class ProblemBodies {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Texts that would show a Java type, a stack or a parser's location dump (and a nested class:
   * {@code $} and a capital).
   */
  static final List<String> INTERNALS =
      List.of(
          "Exception",
          "[Source:",
          "reference chain",
          "java.",
          "io.toa4j",
          "com.fasterxml",
          "tools.jackson",
          "org.eclipse",
          "line: ",
          "byte offset",
          "StreamRead");

  private ProblemBodies() {}

  /** Asserts the answer is a problem of this status and answers its body. */
  static JsonNode assertProblem(int status, Optional<String> contentType, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    assertThat(contentType).as("content-type of %s %s", status, text).contains(Problems.MEDIA_TYPE);
    JsonNode problem;
    try {
      problem = JSON.readTree(body);
    } catch (JacksonException e) {
      throw new AssertionError("a problem body is JSON: " + text, e);
    }
    assertThat(problem.path("type").isString()).as(text).isTrue();
    assertThat(problem.path("title").asString()).as(text).isNotBlank();
    assertThat(problem.path("status").isInt()).as(text).isTrue();
    assertThat(problem.path("status").asInt()).as(text).isEqualTo(status);
    assertThat(problem.path("detail").asString()).as(text).isNotBlank();
    assertThat(problem.path("code").asString()).as(text).matches("[A-Z][A-Z0-9_]*");
    assertThat(problem.path("detail").asString())
        .as(text)
        .doesNotContain(INTERNALS)
        .doesNotContainPattern("\\$[A-Z]");
    return problem;
  }

  static JsonNode assertProblem(int status, RawHttp.Answer answer) {
    assertThat(answer.status()).as(answer.text()).isEqualTo(status);
    return assertProblem(status, answer.header("content-type"), answer.body());
  }
}
