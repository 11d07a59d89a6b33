package io.toa4j.runtime;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The runtime's spans, and the W3C trace context that joins them across processes: in a message's
 * headers ({@code traceparent}, {@code tracestate}) and in an outbox entry, so that the events and
 * tasks of a commit join the trace of the call that committed it, whichever process publishes them
 * and however long after.
 *
 * <p>The propagation is always W3C, whatever the application's propagators, so that two processes
 * of one context always understand each other. Without an SDK the API's no-op tracer makes every
 * span a shared no-op: nothing is recorded, and no context is written to a header or an entry.
 * Thread-safe.
 */
final class Tracing {
  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("toa.operation");
  static final AttributeKey<String> RECORD_ID = AttributeKey.stringKey("toa.record.id");
  static final AttributeKey<String> CALL_IDENTITY = AttributeKey.stringKey("toa.call.identity");
  static final AttributeKey<Long> DELIVERY_ATTEMPT = AttributeKey.longKey("toa.delivery.attempt");
  static final AttributeKey<Boolean> INBOX_ANSWERED = AttributeKey.booleanKey("toa.inbox.answered");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("toa.outcome");
  static final AttributeKey<String> COMPONENT = AttributeKey.stringKey("toa.component");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("toa.message.id");
  static final AttributeKey<String> QUEUE = AttributeKey.stringKey("toa.queue");

  /** The instrumentation scope the runtime's spans are recorded under. */
  static final String SCOPE = "io.toa4j.runtime";

  private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapGetter<Map<String, String>> FROM_MAP =
      (carrier, key) -> carrier == null ? null : carrier.get(key);

  private final OpenTelemetry openTelemetry;
  private final Tracer tracer;

  Tracing(OpenTelemetry openTelemetry) {
    this.openTelemetry = openTelemetry;
    this.tracer = openTelemetry.getTracer(SCOPE);
  }

  OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /** Tracing that records nothing. */
  static Tracing noop() {
    return new Tracing(OpenTelemetry.noop());
  }

  /** A span of the given kind, child of the current context, not yet current. */
  Span start(String name, SpanKind kind) {
    return tracer.spanBuilder(name).setSpanKind(kind).startSpan();
  }

  /** A span of the given kind, child of {@code parent}, not yet current. */
  Span start(String name, SpanKind kind, Context parent) {
    return tracer.spanBuilder(name).setSpanKind(kind).setParent(parent).startSpan();
  }

  /**
   * Hands the message on (published or sent) under a span {@code name}, of kind producer, child of
   * {@code parent}, whose context travels in the message's headers, so that its delivery joins the
   * trace.
   */
  void produce(
      String name, Message message, Context parent, java.util.function.Consumer<Message> out) {
    produce(List.of(new Produced(name, message, parent)), traced -> out.accept(traced.get(0)));
  }

  /** A message to hand on under a span {@code name}, child of {@code parent}. */
  record Produced(String name, Message message, Context parent) {}

  /**
   * Hands the messages on together (published in one go), each under a span of its own as {@link
   * #produce(String, Message, Context, java.util.function.Consumer)} makes one; when it throws,
   * every span is marked failed.
   */
  void produce(List<Produced> messages, java.util.function.Consumer<List<Message>> out) {
    List<Span> spans = new ArrayList<>(messages.size());
    List<Message> traced = new ArrayList<>(messages.size());
    for (Produced produced : messages) {
      Span span = start(produced.name(), SpanKind.PRODUCER, produced.parent());
      span.setAttribute(MESSAGE_ID, produced.message().id());
      spans.add(span);
      traced.add(withContext(produced.message(), produced.parent().with(span)));
    }
    try {
      out.accept(traced);
    } catch (RuntimeException e) {
      spans.forEach(span -> failed(span, e));
      throw e;
    } finally {
      spans.forEach(Span::end);
    }
  }

  /** Marks the span failed by what was thrown. */
  static void failed(Span span, Throwable thrown) {
    span.recordException(thrown);
    span.setStatus(StatusCode.ERROR, String.valueOf(thrown.getMessage()));
  }

  /**
   * The context's W3C fields, as headers; empty when it has no valid span (no SDK, nothing traced).
   */
  static Map<String, String> headers(Context context) {
    Map<String, String> headers = new HashMap<>();
    W3C.inject(context, headers, (carrier, key, value) -> carrier.put(key, value));
    return headers;
  }

  /**
   * The message with the context's W3C fields added to its headers; the message itself when there
   * are none.
   */
  static Message withContext(Message message, Context context) {
    Map<String, String> trace = headers(context);
    if (trace.isEmpty()) return message;
    Map<String, String> headers = new HashMap<>(message.headers());
    headers.putAll(trace);
    return new Message(message.id(), message.label(), message.body(), headers);
  }

  /**
   * The context the headers carry, over the root: a message without one starts a trace of its own.
   */
  static Context extract(Map<String, String> headers) {
    return W3C.extract(Context.root(), headers, FROM_MAP);
  }

  /**
   * The current context as an outbox entry keeps it: a JSON object of its W3C fields; empty when
   * nothing is traced.
   */
  static Optional<Json> entry(Context context) {
    Map<String, String> headers = headers(context);
    if (headers.isEmpty()) return Optional.empty();
    ObjectNode fields = Binding.VALUES.createObjectNode();
    headers.forEach(fields::put);
    return Optional.of(Binding.json(fields));
  }

  /**
   * The context an outbox entry keeps; the root when it keeps none, or something unreadable (a
   * trace context is never worth failing a publish for).
   */
  static Context extract(Optional<Json> entry) {
    if (entry.isEmpty()) return Context.root();
    Map<String, String> headers = new HashMap<>();
    try {
      JsonNode fields = Binding.tree(entry.get());
      fields
          .properties()
          .forEach(
              field -> {
                if (field.getValue().isString())
                  headers.put(field.getKey(), field.getValue().asString());
              });
    } catch (RuntimeException e) {
      return Context.root();
    }
    return extract(headers);
  }
}
