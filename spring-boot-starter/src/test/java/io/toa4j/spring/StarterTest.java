package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.toa4j.api.Request;
import io.toa4j.http.Gateway;
import io.toa4j.idempotency.IdempotentCalls;
import io.toa4j.runtime.Toa;
import io.toa4j.spring.app.Gate;
import io.toa4j.spring.app.WalletsApplication;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The starter in a real Spring Boot web application, on a real port, against the real embedded
 * engine: the context built from {@code toa.*} properties with the wallet compiled with the
 * application, the application's meters, Actuator's health, and the {@code Idempotency-Key}
 * contract on Spring MVC routes.
 */
@SpringBootTest(
    classes = WalletsApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "toa.name=test",
      "toa.components=test.wallets",
      "management.endpoint.health.show-details=always"
    })
class StarterTest {
  static final String WALLET = "0123456789abcdef0123456789abcdef";

  @LocalServerPort int port;
  @Autowired Toa toa;
  @Autowired MeterRegistry registry;
  @Autowired ApplicationContext context;

  @DynamicPropertySource
  static void state(DynamicPropertyRegistry properties) throws IOException {
    Path state = Files.createTempDirectory("toa-starter");
    properties.add("toa.state", state::toString);
  }

  @AfterEach
  void openTheGate() {
    Gate.open();
  }

  private Http http() {
    return new Http(port);
  }

  private long balance(String wallet) {
    HttpResponse<String> response = http().send("GET", "/wallets/" + wallet, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Http.json(response).path("balance").asLong();
  }

  private static String wallet(String suffix) {
    return WALLET.substring(0, 32 - suffix.length()) + suffix;
  }

  @Test
  void context_isBuiltFromProperties_hostsTheComponentOnTheClassPath() {
    assertThat(toa.context().name()).isEqualTo("test");
    assertThat(toa.hosted()).containsExactly("test.wallets");
    assertThat(toa.state().toString()).contains("toa-starter");
  }

  @Test
  void meters_goToTheApplicationsRegistry() {
    toa.call("test.wallets.credit", Request.of(wallet("ee"), java.util.Map.of("amount", 1)));

    assertThat(registry.find("toa.call").tag("operation", "test.wallets.credit").timer())
        .isNotNull();
    assertThat(registry.find("toa.call").tag("operation", "test.wallets.credit").timer().count())
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void gateway_isOffByDefault() {
    assertThat(context.getBeansOfType(Gateway.class)).isEmpty();
  }

  @Test
  void actuatorHealth_isUp_withTheBacklogAndParkedMessages() {
    HttpResponse<String> response = http().send("GET", "/actuator/health", null);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode toaHealth = Http.json(response).path("components").path("toa");
    assertThat(Http.json(response).path("status").asText()).isEqualTo("UP");
    assertThat(toaHealth.path("status").asText()).isEqualTo("UP");
    assertThat(toaHealth.path("details").path("outboxBacklog").isNumber())
        .as(response.body())
        .isTrue();
    assertThat(toaHealth.path("details").path("parked").asLong()).as(response.body()).isZero();
  }

  @Test
  void sameKeyTwice_answersTheSame_replayed_andCreditsOnce() {
    String wallet = wallet("01");
    HttpResponse<String> first =
        http()
            .send(
                "PUT",
                "/wallets/" + wallet + "/credits",
                "{\"amount\": 500}",
                "idempotency-key",
                "k-1");
    HttpResponse<String> again =
        http()
            .send(
                "PUT",
                "/wallets/" + wallet + "/credits",
                "{\"amount\": 500}",
                "idempotency-key",
                "\"k-1\"");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(first.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(first.headers().firstValue("idempotency-ttl")).hasValue("3600");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.headers().firstValue("idempotent-replayed")).hasValue("true");
    assertThat(again.headers().firstValue("idempotency-ttl")).hasValue("3600");
    assertThat(balance(wallet)).isEqualTo(500);
  }

  @Test
  void sameKeyWithAnotherBody_is422_andCreditsNothingMore() {
    String wallet = wallet("02");
    http()
        .send(
            "PUT",
            "/wallets/" + wallet + "/credits",
            "{\"amount\": 500}",
            "idempotency-key",
            "k-2");
    HttpResponse<String> other =
        http()
            .send(
                "PUT",
                "/wallets/" + wallet + "/credits",
                "{\"amount\": 600}",
                "idempotency-key",
                "k-2");

    assertProblem(
        other,
        422,
        "IDEMPOTENCY_KEY_REUSED",
        "used before with a different request on PUT /wallets/{id}/credits");
    assertThat(balance(wallet)).isEqualTo(500);
  }

  @Test
  void sameKeyOnAnotherRoute_isAnotherCall() {
    String wallet = wallet("03");
    http()
        .send(
            "PUT", "/wallets/" + wallet + "/credits", "{\"amount\": 5}", "idempotency-key", "k-3");
    HttpResponse<String> deposit =
        http()
            .send(
                "POST",
                "/wallets/" + wallet + "/deposits",
                "{\"amount\": 5}",
                "idempotency-key",
                "k-3");

    assertThat(deposit.statusCode()).isEqualTo(200);
    assertThat(deposit.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(balance(wallet)).isEqualTo(10);
  }

  @Test
  void noKey_onARequiredRoute_is400_andOnAnOptionalOne_aNewCallEachTime() {
    String wallet = wallet("04");
    assertProblem(
        http().send("PUT", "/wallets/" + wallet + "/credits", "{\"amount\": 5}"),
        400,
        "IDEMPOTENCY_KEY_REQUIRED",
        "PUT /wallets/{id}/credits requires an idempotency-key");
    http().send("POST", "/wallets/" + wallet + "/deposits", "{\"amount\": 5}");
    http().send("POST", "/wallets/" + wallet + "/deposits", "{\"amount\": 5}");

    assertThat(balance(wallet)).isEqualTo(10);
  }

  @Test
  void malformedKey_is400_sayingWhatIsWrong() {
    String path = "/wallets/" + wallet("05") + "/credits";
    assertProblem(
        http().send("PUT", path, "{\"amount\": 5}", "idempotency-key", "two words"),
        400,
        "IDEMPOTENCY_KEY",
        "a space");
    assertProblem(
        http().send("PUT", path, "{\"amount\": 5}", "idempotency-key", "\"open"),
        400,
        "IDEMPOTENCY_KEY",
        "does not close");
    assertProblem(
        http().send("PUT", path, "{\"amount\": 5}", "idempotency-key", "a", "idempotency-key", "b"),
        400,
        "IDEMPOTENCY_KEY",
        "send one");
  }

  @Test
  void sameKeyWhileTheFirstIsRunning_waitsForItsAnswer_andIsTheReplay() throws Exception {
    String path = "/wallets/" + wallet("06") + "/credits";
    var reached = Gate.shut();
    CompletableFuture<HttpResponse<String>> first =
        CompletableFuture.supplyAsync(
            () -> http().send("PUT", path, "{\"amount\": 7}", "idempotency-key", "k-6"));
    assertThat(reached.await(30, TimeUnit.SECONDS)).as("the first credit runs").isTrue();
    double waitsBefore = toa.metrics().counter(IdempotentCalls.WAITS).count();

    CompletableFuture<HttpResponse<String>> meanwhile =
        CompletableFuture.supplyAsync(
            () -> http().send("PUT", path, "{\"amount\": 7}", "idempotency-key", "k-6"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> toa.metrics().counter(IdempotentCalls.WAITS).count() > waitsBefore);
    assertThat(meanwhile).as("the retry waits while the first is held").isNotDone();
    Gate.open();

    HttpResponse<String> answered = first.get(30, TimeUnit.SECONDS);
    HttpResponse<String> attached = meanwhile.get(30, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).isEqualTo(200);
    assertThat(attached.statusCode()).isEqualTo(200);
    assertThat(attached.body()).isEqualTo(answered.body());
    assertThat(attached.headers().firstValue("idempotent-replayed")).hasValue("true");
    assertThat(balance(wallet("06"))).isEqualTo(7);
  }

  @Test
  void callTheEngineRefusesAsAContractViolation_is400Problem_not500() {
    HttpResponse<String> response =
        http()
            .send("PUT", "/wallets/not-an-id/credits", "{\"amount\": 5}", "idempotency-key", "k-7");

    assertProblem(response, 400, "CONTRACT", "query.id must be 32 hexadecimal characters");
  }

  static void assertProblem(HttpResponse<String> response, int status, String code, String detail) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = Http.json(response);
    assertThat(problem.path("code").asText()).isEqualTo(code);
    assertThat(problem.path("status").asInt()).isEqualTo(status);
    assertThat(problem.path("detail").asText()).contains(detail);
    assertThat(response.headers().firstValue("idempotent-replayed")).isEmpty();
  }
}
