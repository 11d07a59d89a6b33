package example;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example as it runs: on a real port, on the embedded engine, its state in a folder of the
 * test's own; the guide's flow ({@link ShopContract}), and the refusals of bad requests.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShopApplicationTest implements ShopContract {
  @LocalServerPort int port;
  @Autowired Toa toa;

  @DynamicPropertySource
  static void state(DynamicPropertyRegistry properties) throws IOException {
    String state = Files.createTempDirectory("toa-shop").toString();
    properties.add("toa.state", () -> state);
  }

  @Override
  public Shop shop() {
    return new Shop(port, toa);
  }

  @Test
  void topupWithoutAKey_is400_andCreditsNothing() {
    String other = "0123456789abcdef0123456789abcdef";
    ResponseEntity<String> response =
        shop()
            .send(
                "POST",
                "/topups",
                Shop.TOPUP.replace("co_1", "co_nokey").replace(Shop.CUSTOMER, other));

    assertThat(response.getStatusCode().value()).isEqualTo(400);
    assertThat(Shop.json(response).path("code").asText()).isEqualTo("IDEMPOTENCY_KEY_REQUIRED");
    assertThat(toa.admin().settle(Duration.ofSeconds(60))).isEmpty();
    ResponseEntity<String> wallet = shop().send("GET", "/wallets/" + other, null);
    assertThat(wallet.getStatusCode().value()).as(wallet.getBody()).isEqualTo(200);
    assertThat(Shop.json(wallet).path("balance").asLong()).as("a wallet never credited").isZero();
  }

  @Test
  void aWalletIdThatIsNotOne_is400Problem() {
    ResponseEntity<String> response = shop().send("GET", "/wallets/alice", null);

    assertThat(response.getStatusCode().value()).as(response.getBody()).isEqualTo(400);
    assertThat(Shop.json(response).path("code").asText()).isEqualTo("CONTRACT");
  }

  @Test
  void aCustomerThatIsNotAWalletId_is400NamingIt() {
    ResponseEntity<String> response =
        shop()
            .send(
                "POST",
                "/topups",
                Shop.TOPUP.replace(Shop.CUSTOMER, "alice"),
                "idempotency-key",
                "k-4");

    assertThat(response.getStatusCode().value()).isEqualTo(400);
    assertThat(response.getHeaders().getContentType()).hasToString("application/problem+json");
    assertThat(Shop.json(response).path("detail").asText())
        .contains("customer must be 32 lowercase hexadecimal characters");
  }
}
