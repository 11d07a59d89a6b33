package io.toa4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ordinary calls between processes: a call to a component this process does not host goes to
 * that component's call queue, {@code <component>..calls}, and waits for the answer of a process
 * that hosts it.
 *
 * <p>On the bus a call is a {@link Message} whose id is the call's identity (so the host runs it
 * under that identity, and its inbox and derived identities work as in one process), whose label
 * is the endpoint, and whose body is the request {@code { query, input }}. The answer's body is
 * one of {@code { output: value }} (no {@code output} for an empty one; {@code replayed: true}
 * beside it when the host's inbox answered), {@code { refusal: { code, cause } }}, {@code {
 * failure: { code, message } }}. Stateless and thread-safe.
 */
final class Calls {
  private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

  private Calls() {}

  /** The queue of a component's calls. */
  static String queue(String component) {
    return component + "..calls";
  }

  /**
   * Sends the call to a process hosting the component and answers what it answered.
   *
   * @throws Failure with the host's code when the call failed there; UNAVAILABLE when no process
   *     hosts the component, or none answered in time; SYSTEM when the bus cannot carry it
   */
  static Result request(Bus bus, String component, String operation, Request request, String identity, Duration timeout) {
    String endpoint = component + "." + operation;
    Message call = new Message(identity, endpoint, Binding.json(Requests.tree(request)), Map.of());
    Response response;
    try {
      response = bus.request(queue(component), call, timeout);
    } catch (RuntimeException e) {
      throw new Failure(Failure.Code.SYSTEM, "cannot send the call of " + endpoint + " to " + component + ": " + e.getMessage(), e);
    }
    if (response instanceof Response.Answered answered) return result(endpoint, Binding.tree(answered.reply().body()));
    if (response instanceof Response.Unserved) {
      throw new Failure(
          Failure.Code.UNAVAILABLE,
          "no process hosts " + component + ", so " + endpoint + " was not called; start one with `toa run " + component + "`");
    }
    throw new Failure(
        Failure.Code.UNAVAILABLE,
        "no answer from " + component + " to the call of " + endpoint + " within " + timeout.toMillis() + " ms; it may have run:"
            + " repeat it under the same identity " + identity + " (an operation that declares once answers a repeat with its first answer)");
  }

  /** Answers the calls of a queue by running them here, as the invoker does, under their identity. */
  static Bus.Responder responder(Messaging.Invoker invoker) {
    return delivery -> {
      Message call = delivery.message();
      return new Message(call.id(), call.label(), Binding.json(answer(invoker, call)), Map.of());
    };
  }

  private static ObjectNode answer(Messaging.Invoker invoker, Message call) {
    ObjectNode answer = Binding.VALUES.createObjectNode();
    try {
      int dot = call.label().lastIndexOf('.');
      if (dot <= 0) throw new Failure(Failure.Code.ENDPOINT, "'" + call.label() + "' is not an endpoint");
      Result result = invoker.invoke(call.label().substring(0, dot), call.label().substring(dot + 1), Requests.parse(Binding.tree(call.body())), call.id());
      if (result instanceof Result.Refused refused) {
        ObjectNode refusal = answer.putObject("refusal").put("code", refused.refusal().code());
        refused.refusal().cause().ifPresent(cause -> refusal.set("cause", Binding.tree(cause)));
      } else {
        Result.Output output = (Result.Output) result;
        if (!output.value().isMissingNode()) answer.set("output", output.value());
        if (output.replayed()) answer.put("replayed", true);
      }
    } catch (Failure f) {
      answer.putObject("failure").put("code", f.code().name()).put("message", String.valueOf(f.getMessage()));
    } catch (RuntimeException e) {
      LOG.error("Call {} of {} failed", call.id(), call.label(), e);
      answer.putObject("failure").put("code", Failure.Code.SYSTEM.name()).put("message", call.label() + " failed: " + e);
    }
    return answer;
  }

  private static Result result(String endpoint, JsonNode answer) {
    if (answer.has("refusal")) {
      JsonNode refusal = answer.get("refusal");
      JsonNode cause = refusal.path("cause");
      return new Result.Refused(
          new Refusal(refusal.path("code").asText(), cause.isMissingNode() ? Optional.empty() : Optional.ofNullable(Binding.plain(cause))));
    }
    if (answer.has("failure")) {
      JsonNode failure = answer.get("failure");
      throw new Failure(code(failure.path("code").asText()), failure.path("message").asText(""));
    }
    if (!answer.isObject()) throw new Failure(Failure.Code.SYSTEM, "the host of " + endpoint + " answered something unreadable: " + answer);
    return new Result.Output(answer.has("output") ? answer.get("output") : MissingNode.getInstance(), answer.path("replayed").asBoolean(false));
  }

  private static Failure.Code code(String name) {
    try {
      return Failure.Code.valueOf(name);
    } catch (IllegalArgumentException e) {
      return Failure.Code.SYSTEM; // a newer runtime's code: still a failure
    }
  }
}
