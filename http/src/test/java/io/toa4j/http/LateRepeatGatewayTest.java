package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.time.TestClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A request retried with its Idempotency-Key after the answer's window (an hour by default) and
 * inside the window that remembers it was answered (30 days): 410 with a problem body saying when
 * it was answered and which record holds what it did, and nothing credited again.
 */
class LateRepeatGatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  final String gate = "toa4j.test.gate." + UUID.randomUUID();
  final TestClock clock = new TestClock();
  Toa app;
  Gateway gateway;

  @BeforeEach
  void start() {
    app =
        Toa.builder()
            .directory(Wallets.context(directory, gate))
            .options(Options.defaults().withClock(clock))
            .build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
  }

  @AfterEach
  void stop() {
    System.getProperties().remove(gate);
    gateway.close();
    app.close();
  }

  HttpResponse<String> send(String method, String path, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) request.header("content-type", "application/json");
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void put_sameKeyAfterTheAnswersWindow_is410WithWhenAndWhere_andCreditsNothing() throws Exception {
    String key = UUID.randomUUID().toString();
    String credits = "/test/wallets/" + WALLET + "/credits/";
    Instant answered = clock.instant();
    assertThat(send("PUT", credits, "{\"amount\": 5}", "idempotency-key", key).statusCode())
        .isEqualTo(200);

    clock.advance(Duration.ofHours(2));
    HttpResponse<String> late = send("PUT", credits, "{\"amount\": 5}", "idempotency-key", key);

    assertThat(late.statusCode()).as(late.body()).isEqualTo(410);
    assertThat(late.headers().firstValue("content-type")).contains("application/problem+json");
    JsonNode problem = JSON.readTree(late.body());
    assertThat(problem.path("title").asString()).isEqualTo("Gone");
    assertThat(problem.path("code").asString()).isEqualTo("ALREADY_ANSWERED");
    assertThat(problem.path("answered").asString()).isEqualTo(answered.toString());
    assertThat(problem.path("component").asString()).isEqualTo("test.wallets");
    assertThat(problem.path("record").asString()).isEqualTo(WALLET);
    assertThat(problem.path("detail").asString())
        .contains(answered.toString())
        .contains("record " + WALLET);

    HttpResponse<String> other = send("PUT", credits, "{\"amount\": 6}", "idempotency-key", key);
    assertThat(other.statusCode()).as("another body under the key is still a reuse").isEqualTo(422);

    HttpResponse<String> wallet = send("GET", "/test/wallets/" + WALLET + "/", null);
    assertThat(JSON.readTree(wallet.body()).path("balance").asLong()).isEqualTo(5);
  }
}
