package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code /.toa/metrics} behind its role, {@code /.toa/health} saying only up or down, and meters
 * that count from the start of the context's boot, at a real gateway on a free port.
 */
class OperationsEndpointsTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static final String PASSWORD = "correct horse battery staple";
  static final String SOURCE = "0123456789abcdef0123456789abcdef";
  static final String QUEUE = "test.sources.created..test.sinks";
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path directory;
  final String failing = "toa4j.test.failing." + UUID.randomUUID();
  Toa app;
  Gateway gateway;

  @AfterEach
  void stop() {
    System.getProperties().remove(failing);
    if (gateway != null) gateway.close();
    if (app != null) app.close();
  }

  private void serve(GatewaySettings settings) {
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), settings);
  }

  @Test
  void metrics_withoutCredentials401_withoutTheRole403_withTheRoleOrACoveringOne200()
      throws Exception {
    app = Toa.builder().directory(Notes.context(directory)).build();
    serve(GatewaySettings.defaults());
    Identities identities =
        new Identities(app.admin().records(Identities.STORE), app.state(), app.clock());
    identities.create("scraper", PASSWORD.toCharArray(), List.of("toa:metrics"));
    identities.create("operator", PASSWORD.toCharArray(), List.of("toa"));
    identities.create("clerk", PASSWORD.toCharArray(), List.of("staff", "toa:metricsx"));
    app.call("test.notes.create", Request.input(Map.of("text", "hello")));

    HttpResponse<String> anonymous = get("/.toa/metrics", null);
    HttpResponse<String> clerk = get("/.toa/metrics", basic("clerk"));
    HttpResponse<String> scraper = get("/.toa/metrics", basic("scraper"));
    HttpResponse<String> operator =
        get(
            "/.toa/metrics",
            "Bearer " + identities.issue("operator", Duration.ofMinutes(5)).token());

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().allValues("www-authenticate")).hasSize(2);
    assertThat(clerk.statusCode()).isEqualTo(403);
    for (HttpResponse<String> refused : List.of(anonymous, clerk)) {
      assertThat(refused.body())
          .contains("toa:metrics")
          .doesNotContain("toa_", "derivations", "test.notes");
    }
    assertThat(scraper.statusCode()).isEqualTo(200);
    assertThat(scraper.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(scraper.body())
        .contains(
            "toa_outbox_backlog{component=\"test.notes\"}",
            "toa_parked",
            "toa_credentials_derivations_total");
    assertThat(scraper.body())
        .as("the call's timer, with the buckets percentiles are taken from")
        .contains("toa_call_seconds_count{operation=\"test.notes.create\",outcome=\"output\"} 1")
        .contains("toa_call_seconds_bucket{operation=\"test.notes.create\",outcome=\"output\",le=")
        .contains("toa_commit_seconds_count{component=\"test.notes\",outcome=\"committed\"} 1");
    assertThat(operator.statusCode()).as("toa covers toa:metrics").isEqualTo(200);
  }

  @Test
  void metrics_withAnotherConfiguredRole_admitsOnlyThatRole() throws Exception {
    app = Toa.builder().directory(Notes.context(directory)).build();
    serve(GatewaySettings.defaults().withMetricsRole("ops:scrape"));
    Identities identities =
        new Identities(app.admin().records(Identities.STORE), app.state(), app.clock());
    identities.create("scraper", PASSWORD.toCharArray(), List.of("toa:metrics"));
    identities.create("ops", PASSWORD.toCharArray(), List.of("ops:scrape"));

    assertThat(get("/.toa/metrics", basic("scraper")).statusCode()).isEqualTo(403);
    assertThat(get("/.toa/metrics", basic("ops")).statusCode()).isEqualTo(200);
  }

  @Test
  void health_up200_down503_saysNothingElse() throws Exception {
    app = Toa.builder().directory(Notes.context(directory)).build();
    serve(GatewaySettings.defaults());

    HttpResponse<String> up = get("/.toa/health", null);
    app.close(); // its storage and bus are gone: the gateway still answers, down
    HttpResponse<String> down = get("/.toa/health", null);

    assertThat(up.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(up.body())).isEqualTo(JSON.readTree("{\"status\": \"up\"}"));
    assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
    assertThat(JSON.readTree(down.body())).isEqualTo(JSON.readTree("{\"status\": \"down\"}"));
  }

  @Test
  void metrics_deliveryHandledDuringBoot_isCounted() throws Exception {
    SourcesAndSinks.write(directory, failing, "[1, 1, 1, 1, 1]");
    // First run: the delivery fails and waits for its retry when the process stops.
    System.setProperty(failing, "true");
    try (Toa first = Toa.builder().directory(directory).build()) {
      first.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  count(
                          first
                              .metrics()
                              .find("toa.messages")
                              .tags("queue", QUEUE, "outcome", "retried")
                              .counter())
                      >= 1);
    }
    System.getProperties().remove(failing);

    // Second run: the boot delivers it before the gateway starts, as a recovery would.
    app = Toa.builder().directory(directory).meterRegistry(Gateway.metricsRegistry()).build();
    assertThat(app.admin().settle(PATIENCE)).isEmpty();
    serve(GatewaySettings.defaults());
    new Identities(app.admin().records(Identities.STORE), app.state(), app.clock())
        .create("scraper", PASSWORD.toCharArray(), List.of("toa:metrics"));

    String metrics = get("/.toa/metrics", basic("scraper")).body();

    assertThat(metrics)
        .containsPattern(
            "toa_messages_total\\{[^}]*outcome=\"delivered\"[^}]*queue=\""
                + QUEUE.replace(".", "\\.")
                + "\"[^}]*\\} 1\\.0");
  }

  private static double count(io.micrometer.core.instrument.Counter counter) {
    return counter == null ? 0 : counter.count();
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path));
    if (authorization != null) request.header("authorization", authorization);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String name) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }
}
