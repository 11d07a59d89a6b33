package io.toa4j.cli;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.runtime.Replies;
import io.toa4j.runtime.Requests;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The control channel's wire format: the one description of what {@code toa call} sends to a
 * running {@code toa run} and what comes back. Stateless and thread-safe.
 *
 * <pre>
 * POST /call                        X-Toa-Token: the token in .toa/run.json
 * { "endpoint": "billing.wallets.credit",
 *   "request": { "query": { "id": "8d1f..." }, "input": { "amount": 5000 } },
 *   "identity": "..." }             identity absent: the application mints one
 *
 * 200 an answer in the one wire form of answers, {@link Replies}:
 *     { "output": value } | { "refusal": { "code", "cause" } } | { "failure": { "code", "message" } }
 * 400 { "failure": { "code": "CONTRACT", ... } }   the body is not such a call
 * 403, 404, 405, 413 { "failure": ... }           wrong token, path, method; body too large
 * </pre>
 *
 * <p>The answer is written and read by {@link Replies}, as calls over the bus are: a reply read
 * back is the same {@link io.toa4j.api.Reply} the application answered, and a failure is thrown
 * again as a {@link Failure} with its code, so a call through the channel looks exactly like a call
 * in-process.
 */
final class Wire {
  static final String PATH = "/call";
  static final String TOKEN_HEADER = "X-Toa-Token";
  static final String MEDIA_TYPE = "application/json";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Wire() {}

  /** A call as it travels. */
  record Call(String endpoint, Request request, Optional<String> identity) {
    Call {
      Objects.requireNonNull(endpoint, "endpoint");
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(identity, "identity");
    }
  }

  /** A body that is not what this format, or the relay's ({@link RelayedCommand}), describes. */
  static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  static byte[] call(Call call) {
    ObjectNode body = JSON.createObjectNode();
    body.put("endpoint", call.endpoint());
    body.set("request", Requests.tree(call.request()));
    call.identity().ifPresent(identity -> body.put("identity", identity));
    return bytes(body);
  }

  /**
   * Reads a call.
   *
   * @throws Malformed when the body is not a call, or its request does not have the request's shape
   */
  static Call readCall(byte[] body) {
    JsonNode tree = tree(body);
    JsonNode endpoint = tree.path("endpoint");
    if (!endpoint.isString())
      throw new Malformed("a call names its endpoint as text; got " + endpoint);
    JsonNode identity = tree.path("identity");
    if (!identity.isMissingNode() && !identity.isNull() && !identity.isString()) {
      throw new Malformed("a call's identity is text; got " + identity);
    }
    Request request;
    try {
      request = Requests.parse(tree.path("request"));
    } catch (Failure e) {
      throw new Malformed(e.getMessage());
    }
    return new Call(
        endpoint.asString(),
        request,
        identity.isString() ? Optional.of(identity.asString()) : Optional.empty());
  }

  private static JsonNode tree(byte[] body) {
    try {
      JsonNode tree = JSON.readTree(body);
      if (tree == null || !tree.isObject()) throw new Malformed("the body is not a JSON object");
      return tree;
    } catch (JacksonException e) {
      throw new Malformed("the body is not JSON: " + e.getOriginalMessage());
    }
  }

  private static byte[] bytes(JsonNode tree) {
    try {
      return JSON.writeValueAsBytes(tree);
    } catch (JacksonException e) {
      throw new IllegalStateException("A tree of plain values cannot be written as JSON", e);
    }
  }
}
