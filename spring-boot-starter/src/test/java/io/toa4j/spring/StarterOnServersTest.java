package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spring.app.WalletsApplication;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter on PostgreSQL and RabbitMQ (a database and a virtual host of the test's own), named
 * by {@code toa.storage.*} and {@code toa.bus.*}: the Idempotency-Key contract on a Spring MVC
 * route and Actuator's health. The application is closed after the class, then both are dropped
 * ({@link DropEngines} is registered before Spring's extension, so it runs after it).
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
@ExtendWith(StarterOnServersTest.DropEngines.class)
@SpringBootTest(
    classes = WalletsApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "toa.name=test",
      "toa.components=test.wallets",
      "management.endpoint.health.show-details=always"
    })
@DirtiesContext
class StarterOnServersTest {
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  private static volatile OwnEngines engines;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void engines(DynamicPropertyRegistry properties) throws Exception {
    OwnEngines own = OwnEngines.create();
    engines = own;
    String state = Files.createTempDirectory("toa-starter").toString();
    properties.add("toa.state", () -> state);
    properties.add("toa.storage.engine", () -> "postgres");
    properties.add("toa.storage.options.url", own::storageUrl);
    properties.add("toa.bus.engine", () -> "rabbitmq");
    properties.add("toa.bus.options.url", own::busUrl);
  }

  @Test
  void sameKeyTwice_isReplayed_andCreditsOnce_inPostgres() {
    Http http = new Http(port);
    HttpResponse<String> first =
        http.send(
            "PUT",
            "/wallets/" + WALLET + "/credits",
            "{\"amount\": 500}",
            "idempotency-key",
            "k-1");
    HttpResponse<String> again =
        http.send(
            "PUT",
            "/wallets/" + WALLET + "/credits",
            "{\"amount\": 500}",
            "idempotency-key",
            "k-1");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    // the same JSON: PostgreSQL keeps a record's properties in an order of its own
    assertThat(Http.json(again)).isEqualTo(Http.json(first));
    assertThat(again.headers().firstValue("idempotent-replayed")).hasValue("true");
    assertThat(Http.json(http.send("GET", "/wallets/" + WALLET, null)).path("balance").asLong())
        .isEqualTo(500);
  }

  @Test
  void actuatorHealth_isUp_onTheServers() {
    HttpResponse<String> health = new Http(port).send("GET", "/actuator/health", null);

    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(Http.json(health).path("components").path("toa").path("status").asText())
        .isEqualTo("UP");
    assertThat(
            Http.json(health)
                .path("components")
                .path("toa")
                .path("details")
                .path("parked")
                .isNumber())
        .as(health.body())
        .isTrue();
  }

  /** Drops the test's database and virtual host once the application is closed. */
  static final class DropEngines implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      if (engines != null) engines.close();
    }
  }
}
