package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.idempotency.IdempotentCalls;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The Idempotency-Key contract on a real gateway, called by the JDK's HTTP client, over a real
 * SQLite context: a retried request is answered with the first answer and credits once.
 */
class IdempotencyKeyGatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static final String OTHER = "fedcba9876543210fedcba9876543210";
  static final String CREDITS = "/test/wallets/" + WALLET + "/credits/";

  @TempDir Path directory;
  final String gate = "toa4j.test.gate." + UUID.randomUUID();
  Toa app;
  Gateway gateway;

  @BeforeEach
  void start() {
    app = Toa.builder().directory(Wallets.context(directory, gate)).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
  }

  @AfterEach
  void stop() {
    System.getProperties().remove(gate);
    gateway.close();
    app.close();
  }

  HttpRequest request(
      String method, String path, String contentType, String body, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) request.header("content-type", contentType);
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    return request.build();
  }

  HttpResponse<String> send(String method, String path, String body, String... headers)
      throws Exception {
    return CLIENT.send(
        request(method, path, "application/json", body, headers),
        HttpResponse.BodyHandlers.ofString());
  }

  CompletableFuture<HttpResponse<String>> sendAsync(
      String method, String path, String body, String... headers) {
    return CLIENT.sendAsync(
        request(method, path, "application/json", body, headers),
        HttpResponse.BodyHandlers.ofString());
  }

  static String amount(long amount) {
    return "{\"amount\": " + amount + "}";
  }

  long balance(String wallet) throws Exception {
    HttpResponse<String> read = send("GET", "/test/wallets/" + wallet + "/", null);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    return JSON.readTree(read.body()).path("balance").asLong();
  }

  static void expectProblem(HttpResponse<String> response, int status, String code, String message)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("code").asString()).isEqualTo(code);
    assertThat(body.path("detail").asString()).contains(message);
  }

  static boolean replayed(HttpResponse<String> response) {
    return response.headers().firstValue("idempotent-replayed").filter("true"::equals).isPresent();
  }

  @Test
  void put_sameKeyTwice_answersTheFirstAnswerTwice_andCreditsOnce_anotherAmountIs422()
      throws Exception {
    String key = UUID.randomUUID().toString();

    HttpResponse<String> first = send("PUT", CREDITS, amount(5), "idempotency-key", key);
    HttpResponse<String> second = send("PUT", CREDITS, amount(5), "idempotency-key", key);

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(second.headers().firstValue("etag")).isEqualTo(first.headers().firstValue("etag"));
    assertThat(replayed(first)).isFalse();
    assertThat(first.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(second.headers().firstValue("idempotent-replayed")).contains("true");
    assertThat(first.headers().firstValue("idempotency-ttl")).contains("3600");
    assertThat(second.headers().firstValue("idempotency-ttl")).contains("3600");
    assertThat(balance(WALLET)).isEqualTo(5);

    HttpResponse<String> other = send("PUT", CREDITS, amount(6), "idempotency-key", key);

    expectProblem(
        other,
        422,
        "IDEMPOTENCY_KEY_REUSED",
        "used before with a different request on PUT /test/wallets/:id/credits/");
    assertThat(other.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void put_sameKeyWithTheSameBodyAsYaml_isARetry() throws Exception {
    String key = UUID.randomUUID().toString();
    send("PUT", CREDITS, amount(5), "idempotency-key", "\"" + key + "\"");

    HttpResponse<String> yaml =
        CLIENT.send(
            request("PUT", CREDITS, "application/yaml", "amount: 5\n", "idempotency-key", key),
            HttpResponse.BodyHandlers.ofString());

    assertThat(yaml.statusCode()).as(yaml.body()).isEqualTo(200);
    assertThat(replayed(yaml)).isTrue();
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void put_sameKeyForAnotherWallet_is422_andCreditsNeither() throws Exception {
    String key = UUID.randomUUID().toString();
    send("PUT", CREDITS, amount(5), "idempotency-key", key);

    HttpResponse<String> other =
        send("PUT", "/test/wallets/" + OTHER + "/credits/", amount(5), "idempotency-key", key);

    expectProblem(other, 422, "IDEMPOTENCY_KEY_REUSED", "different request");
    assertThat(balance(OTHER)).isZero();
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void concurrentPairs_sameKey_areTheSame200Twice_oneOfThemTheReplay_neverTwoCredits()
      throws Exception {
    int pairs = 50;
    for (int pair = 0; pair < pairs; pair++) {
      String key = UUID.randomUUID().toString();
      CompletableFuture<HttpResponse<String>> a =
          sendAsync("PUT", CREDITS, amount(1), "idempotency-key", key);
      CompletableFuture<HttpResponse<String>> b =
          sendAsync("PUT", CREDITS, amount(1), "idempotency-key", key);
      List<HttpResponse<String>> both =
          List.of(a.get(60, TimeUnit.SECONDS), b.get(60, TimeUnit.SECONDS));

      assertThat(both)
          .as("pair %d: %s / %s", pair, both.get(0).body(), both.get(1).body())
          .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      assertThat(both.get(1).body()).isEqualTo(both.get(0).body());
      assertThat(both.stream().filter(IdempotencyKeyGatewayTest::replayed).count())
          .as("one of the two is the replay")
          .isEqualTo(1);
      assertThat(balance(WALLET)).as("after pair %d", pair).isEqualTo(pair + 1);
    }
  }

  @Test
  void keyInFlight_theRetryWaitsForTheFirstAnswer_andIsItsReplay() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    System.getProperties().put(gate, new CountDownLatch[] {entered, open});
    String key = UUID.randomUUID().toString();

    CompletableFuture<HttpResponse<String>> first =
        sendAsync("PUT", CREDITS, amount(5), "idempotency-key", key);
    assertThat(entered.await(30, TimeUnit.SECONDS))
        .as("the first request reached the operation")
        .isTrue();
    CompletableFuture<HttpResponse<String>> retry =
        sendAsync("PUT", CREDITS, amount(5), "idempotency-key", key);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> app.metrics().counter(IdempotentCalls.WAITS).count() == 1);
    assertThat(retry).as("the retry waits while the first is held").isNotDone();
    System.getProperties().remove(gate);
    open.countDown();
    HttpResponse<String> answered = first.get(60, TimeUnit.SECONDS);
    HttpResponse<String> attached = retry.get(60, TimeUnit.SECONDS);

    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    assertThat(attached.statusCode()).as(attached.body()).isEqualTo(200);
    assertThat(attached.body()).isEqualTo(answered.body());
    assertThat(replayed(attached)).isTrue();
    assertThat(replayed(answered)).isFalse();
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void keyInFlightLongerThanTheWait_is409_andTheSameRequestAfterIsTheReplay() throws Exception {
    gateway.close();
    gateway =
        Gateway.start(
            app,
            new InetSocketAddress("127.0.0.1", 0),
            GatewaySettings.defaults().withAttach(Duration.ofMillis(200)));
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    System.getProperties().put(gate, new CountDownLatch[] {entered, open});
    String key = UUID.randomUUID().toString();

    CompletableFuture<HttpResponse<String>> first =
        sendAsync("PUT", CREDITS, amount(5), "idempotency-key", key);
    assertThat(entered.await(30, TimeUnit.SECONDS))
        .as("the first request reached the operation")
        .isTrue();
    HttpResponse<String> meanwhile = send("PUT", CREDITS, amount(5), "idempotency-key", key);
    System.getProperties().remove(gate);
    open.countDown();
    HttpResponse<String> answered = first.get(60, TimeUnit.SECONDS);
    HttpResponse<String> after = send("PUT", CREDITS, amount(5), "idempotency-key", key);

    expectProblem(meanwhile, 409, "IDEMPOTENCY_KEY_IN_USE", "still being answered after 200 ms");
    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    assertThat(after.statusCode()).isEqualTo(200);
    assertThat(after.body()).isEqualTo(answered.body());
    assertThat(replayed(after)).isTrue();
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void differentKeys_areSeparateCredits() throws Exception {
    HttpResponse<String> one =
        send("PUT", CREDITS, amount(5), "idempotency-key", UUID.randomUUID().toString());
    HttpResponse<String> two =
        send("PUT", CREDITS, amount(5), "idempotency-key", UUID.randomUUID().toString());

    assertThat(List.of(one.statusCode(), two.statusCode())).containsExactly(200, 200);
    assertThat(replayed(one) || replayed(two)).isFalse();
    assertThat(balance(WALLET)).isEqualTo(10);
  }

  @Test
  void sameKeyOnAnotherRouteOrMethod_isASeparateCall() throws Exception {
    String key = UUID.randomUUID().toString();

    HttpResponse<String> put = send("PUT", CREDITS, amount(5), "idempotency-key", key);
    HttpResponse<String> deposit =
        send("PUT", "/test/wallets/" + WALLET + "/deposits/", amount(5), "idempotency-key", key);
    HttpResponse<String> post = send("POST", CREDITS, amount(5), "idempotency-key", key);

    assertThat(List.of(put.statusCode(), deposit.statusCode(), post.statusCode()))
        .containsExactly(200, 200, 201);
    assertThat(replayed(put) || replayed(deposit) || replayed(post)).isFalse();
    assertThat(balance(WALLET)).isEqualTo(15);
  }

  @Test
  void withoutAKey_eachRequestIsANewCall_andNoHeaderIsAdded() throws Exception {
    HttpResponse<String> one = send("PUT", CREDITS, amount(5));
    HttpResponse<String> two = send("PUT", CREDITS, amount(5));

    assertThat(List.of(one.statusCode(), two.statusCode())).containsExactly(200, 200);
    assertThat(two.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(balance(WALLET)).isEqualTo(10);
  }

  @Test
  void malformedKeys_are400SayingWhatIsWrong_andChangeNothing() throws Exception {
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "\"\""),
        400,
        "IDEMPOTENCY_KEY",
        "empty");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "k".repeat(256)),
        400,
        "IDEMPOTENCY_KEY",
        "at most 255");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "\"open"),
        400,
        "IDEMPOTENCY_KEY",
        "does not close");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "\"a\\nb\""),
        400,
        "IDEMPOTENCY_KEY",
        "escapes 'n'");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "two words"),
        400,
        "IDEMPOTENCY_KEY",
        "a space");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "a\"b"),
        400,
        "IDEMPOTENCY_KEY",
        "a quote");
    expectProblem(
        send("PUT", CREDITS, amount(5), "idempotency-key", "one", "idempotency-key", "two"),
        400,
        "IDEMPOTENCY_KEY",
        "send one");
    assertThat(balance(WALLET)).isZero();

    assertThat(send("PUT", CREDITS, amount(5), "idempotency-key", "k".repeat(255)).statusCode())
        .as("255 characters are a key")
        .isEqualTo(200);
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void keyRequiredRoute_withoutAKey_is400_andChangesNothing_withOneCredits_andGetNeedsNone()
      throws Exception {
    String grants = "/test/wallets/" + WALLET + "/grants/";

    expectProblem(
        send("PUT", grants, amount(5)),
        400,
        "IDEMPOTENCY_KEY_REQUIRED",
        "PUT /test/wallets/:id/grants/ requires an idempotency-key");
    assertThat(balance(WALLET)).isZero();

    HttpResponse<String> keyed =
        send("PUT", grants, amount(5), "idempotency-key", UUID.randomUUID().toString());
    HttpResponse<String> read = send("GET", grants, null);

    assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(200);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(balance(WALLET)).isEqualTo(5);
  }

  @Test
  void keyOnARouteWithoutOnce_isNotRemembered_noReplayNoTtl() throws Exception {
    String key = UUID.randomUUID().toString();
    String name = "/test/wallets/" + WALLET + "/name/";

    HttpResponse<String> first = send("PUT", name, "{\"name\": \"a\"}", "idempotency-key", key);
    HttpResponse<String> second = send("PUT", name, "{\"name\": \"a\"}", "idempotency-key", key);

    assertThat(List.of(first.statusCode(), second.statusCode())).containsExactly(200, 200);
    assertThat(replayed(second)).isFalse();
    assertThat(second.headers().firstValue("idempotency-ttl")).isEmpty();
    assertThat(JSON.readTree(second.body()).path("VERSION").asLong())
        .as("the operation ran twice")
        .isEqualTo(2);
  }

  @Test
  void keyOnARouteWithoutOnce_protectsTheOnceCallsItMakes() throws Exception {
    String key = UUID.randomUUID().toString();
    String relay = "{\"wallet\": \"" + WALLET + "\", \"amount\": 7}";

    HttpResponse<String> first =
        send("POST", "/test/wallets/relays/", relay, "idempotency-key", key);
    HttpResponse<String> retried =
        send("POST", "/test/wallets/relays/", relay, "idempotency-key", key);

    assertThat(List.of(first.statusCode(), retried.statusCode())).containsExactly(200, 200);
    assertThat(retried.body()).isEqualTo(first.body());
    assertThat(replayed(retried))
        .as("the relay ran again; only the credit it called was replayed")
        .isFalse();
    assertThat(balance(WALLET)).isEqualTo(7);

    HttpResponse<String> changed =
        send("POST", "/test/wallets/relays/", relay.replace("7", "8"), "idempotency-key", key);
    expectProblem(changed, 422, "IDEMPOTENCY_KEY_REUSED", "different request");
    assertThat(balance(WALLET)).isEqualTo(7);

    send("POST", "/test/wallets/relays/", relay);
    send("POST", "/test/wallets/relays/", relay);
    assertThat(balance(WALLET)).as("without a key, each relay is a new call").isEqualTo(21);
  }
}
