package io.toa4j.http;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import org.eclipse.jetty.server.Request;

/**
 * The gateway's span of one request, of kind server, named by its method and, once matched, its
 * route: the parent of the call it makes, in the trace of a {@code traceparent} header the client
 * sent (W3C trace context), else in a trace of its own. It ends when the answer is sent, with the
 * status; a 5xx marks it failed. Recorded with the OpenTelemetry the context was built with, so a
 * context without an SDK records nothing. Thread-safe.
 */
final class Traces {
  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
  static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

  private static final TextMapGetter<Request> HEADERS =
      (request, key) -> request == null ? null : request.getHeaders().get(key);

  private final Tracer tracer;

  Traces(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer("io.toa4j.http");
  }

  /**
   * The request's context: its span started, child of the client's trace context if it sent one.
   */
  Context start(Request request) {
    Context parent =
        W3CTraceContextPropagator.getInstance().extract(Context.root(), request, HEADERS);
    Span span =
        tracer
            .spanBuilder(request.getMethod())
            .setSpanKind(SpanKind.SERVER)
            .setParent(parent)
            .setAttribute(METHOD, request.getMethod())
            .setAttribute(PATH, request.getHttpURI().getPath())
            .startSpan();
    return parent.with(span);
  }

  /** Names the current request's span by its route, the template its path matched. */
  static void routed(String method, String route) {
    Span span = Span.current();
    span.updateName(method + " " + route);
    span.setAttribute(ROUTE, route);
  }

  /** Ends the request's span with the status it was answered. */
  static void end(Context request, int status) {
    Span span = Span.fromContext(request);
    span.setAttribute(STATUS, (long) status);
    if (status >= 500) span.setStatus(StatusCode.ERROR);
    span.end();
  }
}
