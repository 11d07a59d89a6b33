package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shop's top-up as one trace, recorded by the OpenTelemetry SDK's in-memory exporter: the call
 * that records it, its commit, the paid event published, its delivery to the wallets' receiver and
 * the credit that receiver calls, across the processes that host them, and across a restart between
 * the commit and the publish, the outbox entry keeping the call's trace context.
 */
abstract class TracingContract {
  static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir Path directory;
  private final List<SdkTracerProvider> providers = new ArrayList<>();

  /** The options that choose the engines. */
  abstract Options options();

  /** The components each process of the trace hosts: an empty list hosts them all. */
  abstract List<List<String>> processes();

  /** The name of the bus the options choose, and its options in code. */
  abstract String bus();

  abstract Map<String, String> busOptions();

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
        SeedFlowTest.TOPUP,
        Map.of(
            "checkout",
            "co_1",
            "customer",
            SeedFlowTest.CUSTOMER,
            "amount",
            5000,
            "currency",
            "USD"));
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
    Shop.copyTo(directory);
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    List<Toa> started = new ArrayList<>();
    try {
      for (List<String> hosted : processes()) {
        started.add(
            Toa.builder()
                .directory(directory)
                .options(options())
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
      assertThat(delivery.getName()).isEqualTo("deliver " + HostsTest.RECEIVER);
      assertThat(delivery.getKind()).isEqualTo(SpanKind.CONSUMER);

      assertThat(record.getAttributes().get(Tracing.OPERATION)).isEqualTo("billing.topups.record");
      assertThat(record.getAttributes().get(Tracing.RECORD_ID)).isEqualTo(SeedFlowTest.TOPUP);
      assertThat(record.getAttributes().get(Tracing.CALL_IDENTITY)).isNotBlank();
      assertThat(record.getAttributes().get(Tracing.INBOX_ANSWERED)).isFalse();
      assertThat(commit.getAttributes().get(Tracing.RECORD_ID)).isEqualTo(SeedFlowTest.TOPUP);
      assertThat(commit.getAttributes().get(Tracing.OUTCOME)).isEqualTo("committed");
      assertThat(delivery.getAttributes().get(Tracing.DELIVERY_ATTEMPT)).isEqualTo(1L);
      assertThat(delivery.getAttributes().get(Tracing.INBOX_ANSWERED)).isFalse();
      assertThat(delivery.getAttributes().get(Tracing.OUTCOME)).isEqualTo("done");
      assertThat(credit.getAttributes().get(Tracing.OPERATION)).isEqualTo("billing.wallets.credit");
      assertThat(credit.getAttributes().get(Tracing.RECORD_ID)).isEqualTo(SeedFlowTest.CUSTOMER);
      assertThat(credit.getAttributes().get(Tracing.CALL_IDENTITY))
          .isEqualTo(
              Identities.derive(
                  delivery.getAttributes().get(Tracing.MESSAGE_ID), HostsTest.RECEIVER));
    } finally {
      started.forEach(Toa::close);
    }
  }

  @Test
  void anEventPublishedAfterARestart_joinsTheTraceOfTheCallThatCommittedIt() {
    Shop.copyTo(directory);
    InMemorySpanExporter before = InMemorySpanExporter.create();
    InMemorySpanExporter after = InMemorySpanExporter.create();
    try (Toa refusing =
        Toa.builder()
            .directory(directory)
            .options(options())
            .engine(refusingToPublish(bus()))
            .bus("refusing", busOptions())
            .openTelemetry(sdk(before))
            .build()) {
      refusing.call("billing.topups.record", topup());
      assertThat(span(before, "publish billing.topups.paid").getStatus().getStatusCode())
          .as("the bus refused the event; its entry waits in the outbox")
          .isEqualTo(StatusCode.ERROR);
    }
    SpanData record = span(before, "call billing.topups.record");

    // a minute later, when the dead committer's claim on the entry has ended
    Options later = options().withClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)));
    try (Toa restarted =
        Toa.builder().directory(directory).options(later).openTelemetry(sdk(after)).build()) {
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

  /**
   * A bus provider named {@code refusing}: the named bus, whose publish throws, as a broker out of
   * reach would.
   */
  private static BusProvider refusingToPublish(String name) {
    BusProvider real =
        ServiceLoader.load(BusProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals(name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + name + " bus on the class path"));
    return new BusProvider() {
      @Override
      public String name() {
        return "refusing";
      }

      @Override
      public java.util.Set<Bus.Capability> capabilities() {
        return real.capabilities();
      }

      @Override
      public Bus open(BusSettings settings) {
        Bus bus = real.open(settings);
        return (Bus)
            Proxy.newProxyInstance(
                Bus.class.getClassLoader(),
                new Class<?>[] {Bus.class},
                (proxy, method, arguments) -> {
                  if (method.getName().equals("publish"))
                    throw new IllegalStateException("the bus refuses to publish");
                  try {
                    return method.invoke(bus, arguments);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
      }
    };
  }
}
