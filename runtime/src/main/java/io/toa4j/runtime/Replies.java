package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.spi.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one wire form of an answer between processes: how a host answers a call over the bus, and how
 * {@code toa run}'s control channel answers {@code toa call}. Stateless and thread-safe.
 *
 * <pre>
 * { "output": value }                          null for an empty output
 * { "output": value, "replayed": true }        the operation's inbox answered it
 * { "refusal": { "code": "INSUFFICIENT_FUNDS", "cause": value } }   cause null when none
 * { "failure": { "code": "CONTRACT", "message": "..." } }
 * </pre>
 *
 * <p>Reading is lenient where earlier writers differed and strict elsewhere: an object holding
 * nothing but {@code replayed} is an empty output (hosts on the bus used to leave {@code output}
 * out for nothing), an absent cause is none, an unknown failure code (a newer runtime's) reads as
 * {@code SYSTEM}; anything else that is not one of the forms above is {@link Malformed}. A failure
 * read back is thrown as the {@link Failure} it was, so a call that crossed a process looks exactly
 * like a call in-process. Numbers read back as plain values the way an in-process call answers
 * them: whole numbers as {@code Long}.
 *
 * <p>The HTTP gateway is the one edge with another form: it maps answers to HTTP statuses and
 * problem bodies (docs/http.md).
 */
public final class Replies {
  private Replies() {}

  /** A body that is not an answer in this form. */
  public static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  /**
   * A reply as it travels; an output's plain values are written as they are, without a tree
   * between.
   */
  public static byte[] write(Reply reply) {
    return bytes(envelope(reply, false));
  }

  /** A failure as it travels. */
  public static byte[] failure(Failure.Code code, String message) {
    return bytes(failureEnvelope(code, message, Map.of()));
  }

  /** A failure as it travels, with its details. */
  public static byte[] failure(Failure failure) {
    return bytes(failureEnvelope(failure.code(), failure.getMessage(), failure.details()));
  }

  /**
   * Reads an answer back into the reply it was.
   *
   * @throws Failure when the answer is a failure, with its code (SYSTEM for a code this runtime
   *     does not know) and message
   * @throws Malformed when the body is not an answer in this form, saying what is wrong
   */
  public static Reply read(byte[] body) {
    return Routing.reply(outcome(tree(body)));
  }

  /**
   * A result as a host answers it over the bus; its output tree is written as it is, inside an
   * envelope that is a tree too (a map of plain values around it cost Jackson a serializer lookup
   * for each value, about a twelfth of a host's work on a call).
   */
  static Json answer(Result result) {
    if (result instanceof Result.Refused refused) {
      return new Json(
          new String(
              bytes(envelope(new Reply.Refused(refused.refusal()), false)),
              StandardCharsets.UTF_8));
    }
    Result.Output output = (Result.Output) result;
    ObjectNode body = Binding.VALUES.createObjectNode();
    body.set("output", output.value().isMissingNode() ? NullNode.getInstance() : output.value());
    if (output.replayed()) body.put("replayed", true);
    return Binding.json(body);
  }

  /** A failure as a host answers it over the bus. */
  static Json failed(Failure.Code code, String message) {
    return new Json(
        new String(bytes(failureEnvelope(code, message, Map.of())), StandardCharsets.UTF_8));
  }

  /** A failure as a host answers it over the bus, with its details. */
  static Json failed(Failure failure) {
    return new Json(
        new String(
            bytes(failureEnvelope(failure.code(), failure.getMessage(), failure.details())),
            StandardCharsets.UTF_8));
  }

  /**
   * Reads an answer carried by the bus.
   *
   * @throws Failure as {@link #read(byte[])} does
   * @throws Malformed as {@link #read(byte[])} does
   */
  static Result result(Json body) {
    JsonNode tree;
    try {
      tree = Binding.tree(body);
    } catch (IllegalStateException e) {
      throw new Malformed(e.getMessage());
    }
    if (!tree.isObject())
      throw new Malformed("an answer is a JSON object; got " + tree.getNodeType());
    return outcome(tree);
  }

  private static Map<String, Object> envelope(Reply reply, boolean replayed) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (reply instanceof Reply.Output output) {
      body.put("output", output.value().orElse(null));
      if (replayed) body.put("replayed", true);
    } else {
      Refusal refusal = ((Reply.Refused) reply).refusal();
      Map<String, Object> refused = new LinkedHashMap<>();
      refused.put("code", refusal.code());
      refused.put("cause", refusal.cause().orElse(null));
      body.put("refusal", refused);
    }
    return body;
  }

  private static Map<String, Object> failureEnvelope(
      Failure.Code code, String message, Map<String, String> details) {
    Map<String, Object> failure = new LinkedHashMap<>();
    failure.put("code", code.name());
    failure.put("message", String.valueOf(message));
    if (!details.isEmpty()) failure.put("details", details);
    return Map.of("failure", failure);
  }

  private static Result outcome(JsonNode answer) {
    if (answer.has("refusal")) return refused(answer.get("refusal"));
    if (answer.has("failure")) throw failure(answer.get("failure"));
    boolean replayed = replayed(answer);
    if (answer.has("output")) {
      JsonNode output = answer.get("output");
      return new Result.Output(output.isNull() ? MissingNode.getInstance() : output, replayed);
    }
    for (String key : answer.propertyNames()) {
      if (!key.equals("replayed"))
        throw new Malformed("an answer holds output, refusal or failure; got " + answer);
    }
    return new Result.Output(MissingNode.getInstance(), replayed); // an earlier host's empty output
  }

  private static boolean replayed(JsonNode answer) {
    JsonNode replayed = answer.path("replayed");
    if (replayed.isMissingNode()) return false;
    if (!replayed.isBoolean())
      throw new Malformed("an answer's replayed is true or false; got " + replayed);
    return replayed.booleanValue();
  }

  private static Result refused(JsonNode refusal) {
    JsonNode code = refusal.path("code");
    if (!code.isString()) throw new Malformed("a refusal has a code as text; got " + refusal);
    JsonNode cause = refusal.path("cause");
    try {
      return new Result.Refused(
          new Refusal(
              code.asString(),
              cause.isMissingNode() || cause.isNull()
                  ? Optional.empty()
                  : Optional.of(Binding.plain(cause))));
    } catch (IllegalArgumentException e) {
      throw new Malformed(e.getMessage());
    }
  }

  private static Failure failure(JsonNode failure) {
    JsonNode code = failure.path("code");
    if (!code.isString()) throw new Malformed("a failure has a code as text; got " + failure);
    JsonNode details = failure.path("details");
    if (details.isMissingNode())
      return new Failure(code(code.asString()), failure.path("message").asText(""));
    if (!details.isObject())
      throw new Malformed("a failure's details are an object; got " + details);
    Map<String, String> read = new LinkedHashMap<>();
    details
        .properties()
        .forEach(
            e -> {
              if (!e.getValue().isString())
                throw new Malformed(
                    "a failure's detail " + e.getKey() + " is text; got " + e.getValue());
              read.put(e.getKey(), e.getValue().asString());
            });
    return new Failure(code(code.asString()), failure.path("message").asText(""), read);
  }

  private static Failure.Code code(String name) {
    try {
      return Failure.Code.valueOf(name);
    } catch (IllegalArgumentException e) {
      return Failure.Code.SYSTEM; // a newer runtime's code: still a failure
    }
  }

  private static JsonNode tree(byte[] body) {
    try {
      JsonNode tree = Binding.readTree(body);
      if (tree == null || !tree.isObject())
        throw new Malformed(
            "an answer is a JSON object; got " + (tree == null ? "nothing" : tree.getNodeType()));
      return tree;
    } catch (JacksonException e) {
      throw new Malformed("the answer is not JSON: " + e.getOriginalMessage());
    }
  }

  private static byte[] bytes(Map<String, Object> envelope) {
    try {
      return Binding.VALUES.writeValueAsBytes(envelope);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "A reply of plain values cannot be written as JSON: " + e.getOriginalMessage(), e);
    }
  }
}
