package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The application's OpenTelemetry bean, when it defines one, is where the context records its
 * spans.
 */
class OpenTelemetryTest {
  static final String WALLET = "0123456789abcdef0123456789abcdef";

  @TempDir Path state;

  @Test
  void anOpenTelemetryBean_recordsTheContextsSpans() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    try (SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ToaAutoConfiguration.class))
          .withBean(
              OpenTelemetry.class,
              () -> OpenTelemetrySdk.builder().setTracerProvider(provider).build())
          .withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.state=" + state)
          .run(
              context -> {
                Toa toa = context.getBean(Toa.class);
                assertThat(toa.openTelemetry()).isSameAs(context.getBean(OpenTelemetry.class));

                toa.call("test.wallets.credit", Request.of(WALLET, Map.of("amount", 5)), "call-1");

                assertThat(exporter.getFinishedSpanItems())
                    .extracting(SpanData::getName)
                    .contains("call test.wallets.credit", "commit test.wallets");
                toa.close();
              });
    }
  }

  @Test
  void withoutABean_theContextUsesTheGlobalOpenTelemetry() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ToaAutoConfiguration.class))
        .withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.state=" + state)
        .run(
            context -> {
              Toa toa = context.getBean(Toa.class);
              assertThat(toa.openTelemetry())
                  .isSameAs(io.opentelemetry.api.GlobalOpenTelemetry.get());
              toa.close();
            });
  }
}
