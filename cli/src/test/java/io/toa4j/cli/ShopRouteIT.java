package io.toa4j.cli;

import static io.toa4j.cli.ToaShell.WALLET;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's walk through the shop's route, exactly: an identity made with {@code toa identity},
 * a real {@code toa run}, and the guide's {@code PUT} sent as {@code curl} sends it. Every status,
 * header and body the README shows is asserted here, so the README stays true.
 */
class ShopRouteIT {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String KEY = "3f1c8a2e-6d0b-4c1f-9a57-0e2b7c9d4a11";
  private static final String PASSWORD = "staff-password";
  private static final String ANSWER = "{\"id\":\"" + WALLET + "\",\"balance\":5000}";

  @TempDir Path temp;
  private Path shop;
  private Path logs;
  private ToaShell toa;

  @BeforeEach
  void copyShop() throws IOException {
    shop = ToaShell.copyOfShop(temp);
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs);
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void
      creditSentTwiceWithOneKey_is200Twice_theSecondReplayed_creditedOnce_andAnotherAmountIs422_asTheReadmeShows()
          throws Exception {
    ToaShell.Result created =
        toa.runWithInput(shop, PASSWORD + "\n", "identity", "create", "staff", "--role", "store");
    assertThat(created.exitCode()).as("%s", created).isZero();
    ToaShell.Result token = toa.run(shop, "identity", "token", "staff");
    assertThat(token.exitCode()).as("%s", token).isZero();
    int port = toa.serve(shop, "run", java.util.Map.of()).port();
    String basic = basic("staff", PASSWORD);

    HttpResponse<String> first = credit(port, basic, KEY, 5000);
    HttpResponse<String> second = credit(port, basic, KEY, 5000);

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(first.body()).isEqualTo(ANSWER);
    assertThat(first.headers().firstValue("content-type"))
        .contains("application/json; charset=utf-8");
    assertThat(first.headers().firstValue("etag")).contains("\"1\"");
    assertThat(first.headers().firstValue("idempotency-ttl")).contains("3600");
    assertThat(first.headers().firstValue("idempotent-replayed")).isEmpty();
    assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
    assertThat(second.body()).isEqualTo(ANSWER);
    assertThat(second.headers().firstValue("etag")).contains("\"1\"");
    assertThat(second.headers().firstValue("idempotency-ttl")).contains("3600");
    assertThat(second.headers().firstValue("idempotent-replayed")).contains("true");

    // the same identity with its token: the key is the identity's, whichever credentials it shows
    HttpResponse<String> other = credit(port, "Bearer " + token.out().strip(), KEY, 6000);

    assertThat(other.statusCode()).as(other.body()).isEqualTo(422);
    assertThat(other.headers().firstValue("content-type")).contains("application/problem+json");
    assertThat(other.body())
        .isEqualTo(
            "{\"type\":\"about:blank\",\"title\":\"Unprocessable Content\",\"status\":422,\"detail\":\"this idempotency-key was used"
                + " before with a different request on PUT /billing/wallets/:id/credits/; a retry must repeat its request exactly, and a new"
                + " request needs a new key\",\"code\":\"IDEMPOTENCY_KEY_REUSED\"}");
    assertThat(other.headers().firstValue("idempotent-replayed")).isEmpty();

    HttpResponse<String> keyless = credit(port, basic, null, 5000);

    assertThat(keyless.statusCode()).as(keyless.body()).isEqualTo(400);
    assertThat(keyless.body())
        .contains("\"code\":\"IDEMPOTENCY_KEY_REQUIRED\"", "requires an idempotency-key header");
    ToaShell.Result clerk =
        toa.runWithInput(
            shop, "clerk-password\n", "identity", "create", "clerk", "--role", "store:orders");
    assertThat(clerk.exitCode()).as("%s", clerk).isZero();
    HttpResponse<String> anonymous = credit(port, null, KEY, 5000);
    HttpResponse<String> uncovered =
        credit(port, basic("clerk", "clerk-password"), UUID.randomUUID().toString(), 5000);

    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    assertThat(uncovered.statusCode()).as(uncovered.body()).isEqualTo(403);
    toa.assertWallet(shop, 5000, 1); // credited once, through the running process
  }

  private static String basic(String name, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** The README's curl: PUT, the YAML body, the key, credentials, and curl's accept. */
  private static HttpResponse<String> credit(
      int port, String authorization, String key, long amount) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/billing/wallets/" + WALLET + "/credits/"))
            .PUT(
                HttpRequest.BodyPublishers.ofString(
                    "amount: " + amount + "\ntype: goodwill\nref: welcome\n"))
            .header("content-type", "application/yaml")
            .header("accept", "*/*");
    if (authorization != null) request.header("authorization", authorization);
    if (key != null) request.header("idempotency-key", key);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
