package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * One Idempotency-Key sent by two real identities on one route of a real gateway: the caller is
 * part of the call's identity, so they are two calls, and neither is ever answered with the other's
 * answer.
 */
class IdempotencyKeyCallersTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static final String STAFF_CREDITS = "/test/wallets/" + WALLET + "/staff-credits/";
  static final String PASSWORD = "correct horse battery staple";

  @TempDir Path directory;
  Toa app;
  Gateway gateway;
  String aliceBasic;
  String aliceBearer;
  String bobBearer;

  @BeforeEach
  void start() {
    app =
        Toa.builder()
            .directory(Wallets.context(directory, "toa4j.test.gate." + UUID.randomUUID()))
            .build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
    // the store the gateway reads, through another instance, as the command line writes it
    Identities identities =
        new Identities(app.admin().records(Identities.STORE), app.state(), Clock.systemUTC());
    identities.create("alice", PASSWORD.toCharArray(), List.of("store:wallets"));
    identities.create("bob", PASSWORD.toCharArray(), List.of("store"));
    aliceBasic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    aliceBearer = "Bearer " + identities.issue("alice", Duration.ofMinutes(10)).token();
    bobBearer = "Bearer " + identities.issue("bob", Duration.ofMinutes(10)).token();
  }

  @AfterEach
  void stop() {
    gateway.close();
    app.close();
  }

  @Test
  void twoIdentities_sameKeySameRoute_areTwoCredits_andEachRetryIsAnsweredWithItsOwnFirstAnswer()
      throws Exception {
    String key = UUID.randomUUID().toString();

    HttpResponse<String> alice = credit(aliceBasic, key, 5);
    HttpResponse<String> bob = credit(bobBearer, key, 5);

    assertThat(alice.statusCode()).as(alice.body()).isEqualTo(200);
    assertThat(bob.statusCode()).as(bob.body()).isEqualTo(200);
    assertThat(replayed(alice)).isFalse();
    assertThat(replayed(bob))
        .as("bob's first request is his own call, not a replay of alice's")
        .isFalse();
    assertThat(balance(alice)).isEqualTo(5);
    assertThat(balance(bob)).as("two credits").isEqualTo(10);
    assertThat(bob.headers().firstValue("etag")).contains("\"2\"");

    // each retry, with either kind of credentials, gets its own caller's first answer
    HttpResponse<String> aliceAgain = credit(aliceBearer, key, 5);
    HttpResponse<String> bobAgain = credit(bobBearer, key, 5);

    assertThat(aliceAgain.statusCode()).as(aliceAgain.body()).isEqualTo(200);
    assertThat(replayed(aliceAgain)).isTrue();
    assertThat(aliceAgain.body()).isEqualTo(alice.body());
    assertThat(aliceAgain.headers().firstValue("etag")).contains("\"1\"");
    assertThat(bobAgain.statusCode()).as(bobAgain.body()).isEqualTo(200);
    assertThat(replayed(bobAgain)).isTrue();
    assertThat(bobAgain.body()).isEqualTo(bob.body());
    assertThat(stored()).as("the retries credited nothing").isEqualTo(10);
  }

  @Test
  void aKeyReusedWithAnotherAmount_isRefusedForThatCallerOnly() throws Exception {
    String key = UUID.randomUUID().toString();
    assertThat(credit(aliceBasic, key, 5).statusCode()).isEqualTo(200);

    HttpResponse<String> bob =
        credit(bobBearer, key, 7); // alice's key, another amount: bob's own first call
    HttpResponse<String> aliceOther =
        credit(aliceBearer, key, 7); // alice's own key, another amount

    assertThat(bob.statusCode()).as(bob.body()).isEqualTo(200);
    assertThat(replayed(bob)).isFalse();
    assertThat(balance(bob)).isEqualTo(12);
    assertThat(aliceOther.statusCode()).as(aliceOther.body()).isEqualTo(422);
    assertThat(JSON.readTree(aliceOther.body()).path("code").asString())
        .isEqualTo("IDEMPOTENCY_KEY_REUSED");
    assertThat(stored()).isEqualTo(12);
  }

  HttpResponse<String> credit(String authorization, String key, long amount) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + STAFF_CREDITS))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + "}"))
            .header("content-type", "application/json")
            .header("authorization", authorization)
            .header("idempotency-key", key)
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** The balance the wallet holds now, read over the anonymous route. */
  long stored() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port() + "/test/wallets/" + WALLET + "/"))
            .build();
    HttpResponse<String> read = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    return JSON.readTree(read.body()).path("balance").asLong();
  }

  static long balance(HttpResponse<String> response) throws Exception {
    JsonNode body = JSON.readTree(response.body());
    return body.path("balance").asLong();
  }

  static boolean replayed(HttpResponse<String> response) {
    return response.headers().firstValue("idempotent-replayed").filter("true"::equals).isPresent();
  }
}
