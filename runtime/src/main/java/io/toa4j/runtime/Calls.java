package io.toa4j.runtime;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.OutageLog;
import io.toa4j.spi.Response;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ordinary calls between processes: a call to a component this process does not host goes to that
 * component's call queue, {@code <component>..calls}, and waits for the answer of a process that
 * hosts it.
 *
 * <p>On the bus a call is a {@link Message} whose id is the call's identity (so the host runs it
 * under that identity, and its inbox and derived identities work as in one process), whose label is
 * the endpoint, and whose body is the request {@code { query, input }}. The answer's body is in the
 * one wire form of answers, {@link Replies}. The caller's trace context travels in the call's
 * headers: a span {@code request <endpoint>} (client) here, {@code serve <endpoint>} (server) at
 * the host, with the host's call inside it. Stateless and thread-safe.
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
  static Result request(
      Bus bus,
      Tracing tracing,
      String component,
      String operation,
      Request request,
      String identity,
      Duration timeout) {
    String endpoint = component + "." + operation;
    Span span = tracing.start("request " + endpoint, SpanKind.CLIENT);
    span.setAttribute(Tracing.OPERATION, endpoint);
    span.setAttribute(Tracing.CALL_IDENTITY, identity);
    try {
      Result result =
          request(
              bus, component, endpoint, request, identity, timeout, Context.current().with(span));
      span.setAttribute(
          Tracing.INBOX_ANSWERED, result instanceof Result.Output output && output.replayed());
      return result;
    } catch (RuntimeException e) {
      Tracing.failed(span, e);
      throw e;
    } finally {
      span.end();
    }
  }

  private static Failure carriesNoCalls(Bus bus, String component, String endpoint) {
    return new Failure(
        Failure.Code.UNAVAILABLE,
        endpoint
            + " cannot be called from a process that does not host "
            + component
            + ": "
            + bus.describe()
            + " carries no calls");
  }

  private static Result request(
      Bus bus,
      String component,
      String endpoint,
      Request request,
      String identity,
      Duration timeout,
      Context context) {
    Message call =
        Tracing.withContext(
            new Message(identity, endpoint, Binding.json(Requests.tree(request)), Map.of()),
            context);
    Bus.Calls calls = bus.calls().orElseThrow(() -> carriesNoCalls(bus, component, endpoint));
    Response response;
    try {
      response = calls.request(queue(component), call, timeout);
    } catch (RuntimeException e) {
      throw new Failure(
          Failure.Code.SYSTEM,
          "cannot send the call of " + endpoint + " to " + component + ": " + e.getMessage(),
          e);
    }
    if (response instanceof Response.Answered answered)
      return result(endpoint, answered.reply().body());
    if (response instanceof Response.Unserved) {
      throw new Failure(
          Failure.Code.UNAVAILABLE,
          "no process hosts "
              + component
              + ", so "
              + endpoint
              + " was not called; start one with `toa run "
              + component
              + "`");
    }
    throw new Failure(
        Failure.Code.UNAVAILABLE,
        "no answer from "
            + component
            + " to the call of "
            + endpoint
            + " within "
            + timeout.toMillis()
            + " ms; it may have run:"
            + " repeat it under the same identity "
            + identity
            + " (an operation that declares once answers a repeat with its first answer)");
  }

  /**
   * Answers the calls of a component's queue by running them here, as the invoker does, under their
   * identity. A server out of reach while answering is logged once for the component, not once per
   * call (see {@link OutageLog}).
   */
  static Bus.Responder responder(
      Messaging.Invoker invoker,
      Tracing tracing,
      String component,
      InFlight inFlight,
      Runnable waiting) {
    OutageLog outage = new OutageLog(LOG, "Calls of " + component);
    return delivery -> {
      Message call = delivery.message();
      Span span =
          tracing.start("serve " + call.label(), SpanKind.SERVER, Tracing.extract(call.headers()));
      span.setAttribute(Tracing.OPERATION, call.label());
      span.setAttribute(Tracing.CALL_IDENTITY, call.id());
      // A call whose twin (the same identity, a caller's retry) is running here waits for its
      // answer
      // and is then answered from the inbox, so the operation runs once; past the wait it goes on,
      // and the store lets one of the two commit.
      String key = call.label() + " " + call.id();
      boolean taken = inFlight.take(key, ATTACH, waiting);
      try (Scope scope = span.makeCurrent()) {
        return new Message(call.id(), call.label(), answer(invoker, call, outage), Map.of());
      } finally {
        if (taken) inFlight.release(key);
        span.end();
      }
    };
  }

  /** How long a call waits for its twin running in this host before it runs all the same. */
  static final Duration ATTACH = Duration.ofSeconds(5);

  /** The counter of calls that found their twin running in this host and waited for it. */
  static final String WAITS = "toa.calls.waits";

  private static Json answer(Messaging.Invoker invoker, Message call, OutageLog outage) {
    long attempt = outage.attempt();
    try {
      int dot = call.label().lastIndexOf('.');
      if (dot <= 0)
        throw new Failure(Failure.Code.ENDPOINT, "'" + call.label() + "' is not an endpoint");
      Json answer =
          Replies.answer(
              invoker.invoke(
                  call.label().substring(0, dot),
                  call.label().substring(dot + 1),
                  Requests.parse(Binding.tree(call.body())),
                  call.id(),
                  true));
      outage.succeeded();
      return answer;
    } catch (Failure f) {
      if (OutageLog.isOutage(f)) outage.failed(f, attempt);
      else outage.succeeded(); // the call ran and failed on its own: the servers answered
      return Replies.failed(f);
    } catch (RuntimeException e) {
      if (OutageLog.isOutage(e)) outage.failed(e, attempt);
      else LOG.error("Call {} of {} failed", call.id(), call.label(), e);
      return Replies.failed(Failure.Code.SYSTEM, call.label() + " failed: " + e);
    }
  }

  private static Result result(String endpoint, Json answer) {
    try {
      return Replies.result(answer);
    } catch (Replies.Malformed e) {
      throw new Failure(
          Failure.Code.SYSTEM,
          "the host of " + endpoint + " answered something unreadable: " + e.getMessage());
    }
  }
}
