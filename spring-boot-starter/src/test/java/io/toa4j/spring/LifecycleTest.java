package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.http.Gateway;
import io.toa4j.runtime.Toa;
import io.toa4j.spring.app.Gate;
import io.toa4j.spring.app.WalletsApplication;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Starting and stopping the application: the gateway when it is asked for, and a stop that lets the
 * request in flight finish its call before the context closes, then closes it.
 */
class LifecycleTest {
  static final String WALLET = "0123456789abcdef0123456789abcd01";

  @TempDir Path state;

  @AfterEach
  void openTheGate() {
    Gate.open();
  }

  private ConfigurableApplicationContext start(String... properties) {
    String[] all = new String[properties.length + 4];
    all[0] = "--toa.name=test";
    all[1] = "--toa.components=test.wallets";
    all[2] = "--toa.state=" + state;
    all[3] = "--server.port=0";
    for (int i = 0; i < properties.length; i++) all[i + 4] = "--" + properties[i];
    return new SpringApplicationBuilder(WalletsApplication.class).run(all);
  }

  private static int port(ConfigurableApplicationContext application) {
    return ((WebServerApplicationContext) application).getWebServer().getPort();
  }

  @Test
  void gatewayEnabled_servesTheExpositionOnItsOwnAddress_andStopsWithTheApplication() {
    int gatewayPort;
    try (ConfigurableApplicationContext application =
        start(
            "toa.gateway.enabled=true",
            "toa.gateway.address=127.0.0.1:0",
            "toa.gateway.operator-role=ops")) {
      Gateway gateway = application.getBean(Gateway.class);
      gatewayPort = gateway.port();
      assertThat(gatewayPort).isNotEqualTo(port(application));
      application
          .getBean(Toa.class)
          .call("test.wallets.credit", Request.of(WALLET, Map.of("amount", 3)));

      HttpResponse<String> health = new Http(gatewayPort).send("GET", "/.toa/health", null);
      HttpResponse<String> wallet =
          new Http(gatewayPort).send("GET", "/test/wallets/" + WALLET + "/", null);

      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(wallet.statusCode()).as(wallet.body()).isEqualTo(200);
      assertThat(Http.json(wallet).path("balance").asLong()).isEqualTo(3);
      HttpResponse<String> console = new Http(gatewayPort).send("GET", "/.toa/console/", null);
      HttpResponse<String> state = new Http(gatewayPort).send("GET", "/.toa/console/state", null);
      assertThat(console.statusCode()).as("the operator console's page").isEqualTo(200);
      assertThat(state.statusCode()).isEqualTo(401);
      assertThat(state.body()).as("open to the configured role").contains("[ops]");
    }
    assertThatThrownBy(() -> new Http(gatewayPort).send("GET", "/.toa/health", null))
        .as("the gateway stopped")
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void stop_letsTheRequestInFlightFinishItsCall_thenClosesTheContext() throws Exception {
    ConfigurableApplicationContext application = start();
    Toa toa = application.getBean(Toa.class);
    Http http = new Http(port(application));
    CountDownLatch reached = Gate.shut();
    CompletableFuture<HttpResponse<String>> inFlight =
        CompletableFuture.supplyAsync(
            () ->
                http.send(
                    "PUT",
                    "/wallets/" + WALLET + "/credits",
                    "{\"amount\": 9}",
                    "idempotency-key",
                    "k-stop"));
    assertThat(reached.await(30, TimeUnit.SECONDS)).as("the credit runs").isTrue();

    CountDownLatch closing = new CountDownLatch(1);
    application.addApplicationListener((ContextClosedEvent event) -> closing.countDown());
    CompletableFuture<Void> stopping = CompletableFuture.runAsync(application::close);
    assertThat(closing.await(30, TimeUnit.SECONDS)).as("the stop begins").isTrue();
    // the stop waits for the web server, which waits for the request the gate holds; had the
    // context closed first, that request's commit would fail
    assertThat(stopping).as("the stop waits for the request in flight").isNotDone();
    Gate.open();

    HttpResponse<String> answered = inFlight.get(30, TimeUnit.SECONDS);
    stopping.get(60, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    assertThatThrownBy(() -> toa.call("test.wallets.observe", Request.id(WALLET)))
        .as("the context is closed")
        .isInstanceOf(RuntimeException.class);
    try (ConfigurableApplicationContext again = start()) {
      assertThat(new Http(port(again)).send("GET", "/wallets/" + WALLET, null).body())
          .contains("\"balance\":9");
    }
  }
}
