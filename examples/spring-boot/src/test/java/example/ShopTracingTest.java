package example;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * docs/spring-boot.md's tracing recipe on the example: Spring Boot's OpenTelemetry starter on the
 * class path and every trace sampled. A top-up's request is one trace, from Spring MVC's server
 * span through the runtime's call and commit to the wallet's credit after the event's delivery. The
 * spans go to an in-memory exporter here, where an application sets an OTLP endpoint.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.tracing.sampling.probability=1.0")
class ShopTracingTest {
  @LocalServerPort int port;
  @Autowired Toa toa;
  @Autowired InMemorySpanExporter spans;
  @Autowired SdkTracerProvider tracerProvider;

  @TestConfiguration
  static class Spans {
    @Bean
    InMemorySpanExporter spans() {
      return InMemorySpanExporter.create();
    }
  }

  @DynamicPropertySource
  static void state(DynamicPropertyRegistry properties) throws IOException {
    String state = Files.createTempDirectory("toa-shop-traces").toString();
    properties.add("toa.state", () -> state);
  }

  @Test
  void aTopup_isOneTrace_fromTheRequestToTheWalletsCredit() {
    ResponseEntity<String> recorded =
        new Shop(port, toa).send("POST", "/topups", Shop.TOPUP, "idempotency-key", Shop.KEY);
    assertThat(recorded.getStatusCode().value()).as(recorded.getBody()).isEqualTo(200);
    assertThat(toa.admin().settle(Duration.ofSeconds(60))).as("every event handled").isEmpty();
    assertThat(tracerProvider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();

    List<SpanData> finished = spans.getFinishedSpanItems();
    SpanData request =
        finished.stream()
            .filter(span -> span.getKind() == SpanKind.SERVER && span.getName().contains("/topups"))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no server span for /topups in " + names(finished)));
    List<String> inTheTrace =
        finished.stream()
            .filter(span -> span.getTraceId().equals(request.getTraceId()))
            .map(SpanData::getName)
            .toList();
    assertThat(inTheTrace)
        .as(names(finished).toString())
        .contains(
            "call billing.topups.record",
            "commit billing.topups",
            "publish billing.topups.paid",
            "call billing.wallets.credit",
            "commit billing.wallets");
    SpanData call =
        finished.stream()
            .filter(span -> span.getName().equals("call billing.topups.record"))
            .findFirst()
            .orElseThrow();
    assertThat(call.getParentSpanId())
        .as("the call is the request's child")
        .isEqualTo(request.getSpanId());
  }

  private static List<String> names(List<SpanData> spans) {
    return spans.stream()
        .map(span -> span.getName() + " (" + span.getKind() + ", trace " + span.getTraceId() + ")")
        .toList();
  }
}
