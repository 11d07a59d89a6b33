package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.toa4j.api.Request;
import io.toa4j.runtime.CallIdentities;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shop's top-up as one trace, recorded by the OpenTelemetry SDK's in-memory exporter: the call
 * that records it, its commit, the paid event published, its delivery to the wallets' receiver and
 * the credit that receiver calls, across the processes that host them, and across a restart between
 * the commit and the publish, the outbox entry keeping the call's trace context.
 */
public abstract class TracingContract {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final String TOPUP = "4af147e8801b824e7bd03b000e1d4b64";
  static final String CUSTOMER = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String RECEIVER = "billing.topups.paid..billing.wallets";

  // the span attributes docs/observability.md names
  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("toa.operation");
  static final AttributeKey<String> RECORD_ID = AttributeKey.stringKey("toa.record.id");
  static final AttributeKey<String> CALL_IDENTITY = AttributeKey.stringKey("toa.call.identity");
  static final AttributeKey<Long> DELIVERY_ATTEMPT = AttributeKey.longKey("toa.delivery.attempt");
  static final AttributeKey<Boolean> INBOX_ANSWERED = AttributeKey.booleanKey("toa.inbox.answered");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("toa.outcome");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("toa.message.id");

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  private final List<SdkTracerProvider> providers = new ArrayList<>();

  /** The engines under test. */
  protected abstract Engines engines();

  /**
   * The components each process of the trace hosts: on a bus that processes share, the top-ups in
   * one and the wallets in another; else one process that hosts them all.
   */
  private List<List<String>> processes() {
    return engines().distributed()
        ? List.of(List.of("billing.topups"), List.of("billing.wallets"))
        : List.of(List.of());
  }

  @AfterEach
  void shutDownTheSdks() {
    providers.forEach(SdkTracerProvider::close);
  }

  /** An SDK of one process, its spans exported, as they end, to {@code exporter}. */
  private OpenTelemetry sdk(InMemorySpanExporter exporter) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    providers.add(provider);
    return OpenTelemetrySdk.builder().setTracerProvider(provider).build();
  }

  private static Request topup() {
    return Request.of(
        TOPUP, Map.of("checkout", "co_1", "customer", CUSTOMER, "amount", 5000, "currency", "USD"));
  }

  private static SpanData span(InMemorySpanExporter exporter, String name) {
    return await()
        .atMost(PATIENCE)
        .until(
            () ->
                exporter.getFinishedSpanItems().stream()
                    .filter(s -> s.getName().equals(name))
                    .findFirst(),
            found -> found.isPresent())
        .orElseThrow();
  }

  private static SpanData parent(InMemorySpanExporter exporter, SpanData child) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getSpanId().equals(child.getParentSpanId()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no recorded parent of " + child.getName()));
  }

  @Test
  void aTopUp_isOneTrace_fromItsCallThroughThePaidEventToTheWalletsCredit() {
    Contexts.shop(directory);
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    List<Toa> started = new ArrayList<>();
    try {
      for (List<String> hosted : processes()) {
        started.add(
            engines()
                .builder(directory, Options.defaults())
                .host(hosted)
                .openTelemetry(sdk(exporter))
                .build());
      }
      started.get(0).call("billing.topups.record", topup());

      SpanData credit = span(exporter, "call billing.wallets.credit");
      SpanData record = span(exporter, "call billing.topups.record");
      SpanData delivery = parent(exporter, credit);
      SpanData published = parent(exporter, delivery);
      SpanData commit = span(exporter, "commit billing.topups");

      assertThat(List.of(commit, published, delivery, credit))
          .extracting(SpanData::getTraceId)
          .containsOnly(record.getTraceId());
      assertThat(record.getParentSpanContext().isValid()).as("the call starts the trace").isFalse();
      assertThat(commit.getParentSpanId()).isEqualTo(record.getSpanId());
      assertThat(published.getName()).isEqualTo("publish billing.topups.paid");
      assertThat(published.getKind()).isEqualTo(SpanKind.PRODUCER);
      assertThat(published.getParentSpanId()).isEqualTo(record.getSpanId());
      assertThat(delivery.getName()).isEqualTo("deliver " + RECEIVER);
      assertThat(delivery.getKind()).isEqualTo(SpanKind.CONSUMER);

      assertThat(record.getAttributes().get(OPERATION)).isEqualTo("billing.topups.record");
      assertThat(record.getAttributes().get(RECORD_ID)).isEqualTo(TOPUP);
      assertThat(record.getAttributes().get(CALL_IDENTITY)).isNotBlank();
      assertThat(record.getAttributes().get(INBOX_ANSWERED)).isFalse();
      assertThat(commit.getAttributes().get(RECORD_ID)).isEqualTo(TOPUP);
      assertThat(commit.getAttributes().get(OUTCOME)).isEqualTo("committed");
      assertThat(delivery.getAttributes().get(DELIVERY_ATTEMPT)).isEqualTo(1L);
      assertThat(delivery.getAttributes().get(INBOX_ANSWERED)).isFalse();
      assertThat(delivery.getAttributes().get(OUTCOME)).isEqualTo("done");
      assertThat(credit.getAttributes().get(OPERATION)).isEqualTo("billing.wallets.credit");
      assertThat(credit.getAttributes().get(RECORD_ID)).isEqualTo(CUSTOMER);
      assertThat(credit.getAttributes().get(CALL_IDENTITY))
          .isEqualTo(CallIdentities.delivery(delivery.getAttributes().get(MESSAGE_ID), RECEIVER));
    } finally {
      started.forEach(Toa::close);
    }
  }

  @Test
  void anEventPublishedAfterARestart_joinsTheTraceOfTheCallThatCommittedIt() {
    Contexts.shop(directory);
    InMemorySpanExporter before = InMemorySpanExporter.create();
    InMemorySpanExporter after = InMemorySpanExporter.create();
    InterceptedBus refusingToPublish =
        new InterceptedBus(
            "refusing",
            engines().bus(),
            (events, proceed) -> {
              throw new IllegalStateException("the bus refuses to publish");
            });
    try (Toa refusing =
        engines()
            .builder(directory, Options.defaults(), refusingToPublish)
            .openTelemetry(sdk(before))
            .build()) {
      refusing.call("billing.topups.record", topup());
      assertThat(span(before, "publish billing.topups.paid").getStatus().getStatusCode())
          .as("the bus refused the event; its entry waits in the outbox")
          .isEqualTo(StatusCode.ERROR);
    }
    SpanData record = span(before, "call billing.topups.record");

    // a minute later, when the dead committer's claim on the entry has ended
    Options later =
        Options.defaults().withClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)));
    try (Toa restarted = engines().builder(directory, later).openTelemetry(sdk(after)).build()) {
      assertThat(restarted.hosted()).contains("billing.topups");
      SpanData credit = span(after, "call billing.wallets.credit");
      SpanData published = parent(after, parent(after, credit));

      assertThat(published.getName()).isEqualTo("publish billing.topups.paid");
      assertThat(published.getTraceId()).isEqualTo(record.getTraceId());
      assertThat(published.getParentSpanId())
          .as("the outbox entry kept the call's context")
          .isEqualTo(record.getSpanId());
      assertThat(credit.getTraceId()).isEqualTo(record.getTraceId());
      assertThat(after.getFinishedSpanItems())
          .noneMatch(s -> s.getName().equals("call billing.topups.record"));
    }
  }
}
