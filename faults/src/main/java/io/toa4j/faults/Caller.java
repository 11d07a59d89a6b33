package io.toa4j.faults;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the load reaches the context: one call, under the identity given, answered or not.
 * Thread-safe.
 *
 * <p>An answer is written as text, its members sorted, so that two answers are equal exactly when
 * they say the same: {@code output: {...}} or {@code refusal: CODE}. Whether the inbox replayed it
 * is not part of it.
 */
interface Caller extends AutoCloseable {
  JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

  /** The call found no answer: it failed, timed out or could not be sent. It may have run. */
  final class Unanswered extends Exception {
    private static final long serialVersionUID = 1L;

    Unanswered(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Makes the call once.
   *
   * @return the answer, as text
   * @throws Unanswered when there is none; the caller may repeat the call unchanged
   */
  String call(String endpoint, Request request, String identity) throws Unanswered;

  @Override
  void close();

  /** An answer as text: the output's value, or the refusal's code. */
  static String text(Reply reply) {
    if (reply instanceof Reply.Output output) {
      return "output: " + JSON.writeValueAsString(output.value().orElse(null));
    }
    if (reply instanceof Reply.Refused refused) return "refusal: " + refused.refusal().code();
    throw new IllegalStateException("an answer of a kind the run does not know: " + reply);
  }

  /** The value of an answer written by {@link #text}, when it is an output. */
  static JsonNode output(String answer) {
    if (!answer.startsWith("output: ")) return JSON.nullNode();
    return JSON.readTree(answer.substring("output: ".length()));
  }

  /** A value read as a tree, as plain maps, lists and numbers. */
  static Object plain(JsonNode tree) {
    return JSON.convertValue(tree, Object.class);
  }
}
