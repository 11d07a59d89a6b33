package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shop's top-up recorded over HTTP, on SQLite and the embedded bus, as one trace recorded by
 * the OpenTelemetry SDK's in-memory exporter: the gateway's request span, in the trace of the
 * client's {@code traceparent}, then the call, the paid event and the wallets' credit.
 */
class TracingGatewayTest {
  static final Path SHOP =
      Path.of(System.getProperty("toa.examples", "../examples")).resolve("shop");
  static final String TOPUP = "4af147e8801b824e7bd03b000e1d4b64";
  static final String CUSTOMER = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String CLIENT_SPAN = "00f067aa0ba902b7";
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path directory;
  final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  SdkTracerProvider provider;
  Toa app;
  Gateway gateway;

  @BeforeEach
  void start() throws IOException {
    copy(SHOP, directory);
    Path topups = directory.resolve("components/billing.topups/manifest.toa.yaml");
    Files.writeString(
        topups,
        Files.readString(topups)
            + "\nexposition:\n  auth:anonymous: true\n  /:id:\n    PUT: record\n");
    provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    app =
        Toa.builder()
            .directory(directory)
            .openTelemetry(OpenTelemetrySdk.builder().setTracerProvider(provider).build())
            .build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
  }

  @AfterEach
  void stop() {
    gateway.close();
    app.close();
    provider.close();
  }

  private HttpResponse<String> record(String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port() + "/billing/topups/" + TOPUP + "/"))
            .PUT(
                HttpRequest.BodyPublishers.ofString(
                    "{\"checkout\": \"co_1\", \"customer\": \""
                        + CUSTOMER
                        + "\", \"amount\": 5000, \"currency\": \"USD\"}"))
            .header("content-type", "application/json");
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private SpanData span(String name) {
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

  @Test
  void aTopUpOverHttp_withTheClientsTraceparent_isOneTraceFromTheRequestToTheWalletsCredit()
      throws Exception {
    HttpResponse<String> answered =
        record("traceparent", "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01");
    assertThat(answered.statusCode()).as(answered.body()).isBetween(200, 204);

    SpanData credit = span("call billing.wallets.credit");
    SpanData request = span("PUT /billing/topups/:id/");
    SpanData call = span("call billing.topups.record");

    assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(request.getTraceId()).isEqualTo(CLIENT_TRACE);
    assertThat(request.getParentSpanId())
        .as("the client's span is the request's parent")
        .isEqualTo(CLIENT_SPAN);
    assertThat(request.getAttributes().get(Traces.ROUTE)).isEqualTo("/billing/topups/:id/");
    assertThat(request.getAttributes().get(Traces.STATUS)).isEqualTo((long) answered.statusCode());
    assertThat(call.getParentSpanId()).isEqualTo(request.getSpanId());
    assertThat(call.getTraceId()).isEqualTo(CLIENT_TRACE);
    assertThat(credit.getTraceId())
        .as("the event's delivery and the credit join the request's trace")
        .isEqualTo(CLIENT_TRACE);
  }

  @Test
  void aRequestWithoutTraceparent_startsATraceOfItsOwn_andARefusalIsRecordedWithItsStatus()
      throws Exception {
    HttpResponse<String> answered = record();
    HttpResponse<String> unrouted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + gateway.port() + "/billing/nothing/"))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    SpanData request = span("PUT /billing/topups/:id/");
    SpanData credit = span("call billing.wallets.credit");
    SpanData refused = span("GET");
    assertThat(answered.statusCode()).isBetween(200, 204);
    assertThat(request.getParentSpanContext().isValid()).isFalse();
    assertThat(credit.getTraceId()).isEqualTo(request.getTraceId());
    assertThat(unrouted.statusCode()).isEqualTo(404);
    assertThat(refused.getAttributes().get(Traces.STATUS)).isEqualTo(404L);
    assertThat(refused.getAttributes().get(Traces.PATH)).isEqualTo("/billing/nothing/");
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files.sorted(Comparator.naturalOrder())::iterator) {
        String relative = from.relativize(source).toString();
        if (relative.startsWith(".toa")) continue;
        Path copy = to.resolve(relative);
        if (Files.isDirectory(source)) Files.createDirectories(copy);
        else Files.copy(source, copy);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
