package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.testkit.logs.CapturedLog;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a process says and does when PostgreSQL or RabbitMQ goes away and comes back, each reached
 * through a {@link TcpProxy} that cuts it off (connections cut, new ones refused) without stopping
 * the shared server: each part that fails logs one WARN without a stack trace when the server goes
 * and one INFO when it is back; and a process started while a server is away serves once it is
 * back. How soon (the wait tries every second) is a speed figure, not asserted here: a wall-clock
 * bound in a test fails on a busy machine and proves nothing about the mechanism.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class OutagesTest {
  static final Duration BOUND = Duration.ofMinutes(3);

  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();
  int postgresPort = TcpProxy.freePort();
  int rabbitPort = TcpProxy.freePort();

  @BeforeEach
  void copyTheShop() throws Exception {
    Shop.copyTo(directory);
  }

  private Toa boot() {
    Map<String, String> throughProxies =
        DistributedEngines.environment(
            Server.POSTGRES.url(engines.name, postgresPort),
            Server.RABBITMQ.url(engines.name, rabbitPort));
    return Toa.builder()
        .directory(directory)
        .options(
            Options.defaults().withEnvironment(throughProxies).withStartupWait(Options.FOREVER))
        .build();
  }

  @Test
  void rabbitmqAwayUnderLoad_eachPartLogsOneWarnThenOneInfo() throws Exception {
    try (CapturedLog log = CapturedLog.start();
        TcpProxy postgres =
            TcpProxy.start(postgresPort, Server.POSTGRES.host(), Server.POSTGRES.port());
        TcpProxy rabbit =
            TcpProxy.start(rabbitPort, Server.RABBITMQ.host(), Server.RABBITMQ.port());
        Toa shop = boot()) {
      ShopLoad load = ShopLoad.start(shop, 8, 300, 4, BOUND);
      load.awaitAnswered(0.2);
      rabbit.down();
      await()
          .atMost(BOUND)
          .until(
              () ->
                  !log.lines(" WARN ", "Publishing the outbox of billing.topups fails").isEmpty());
      load.awaitAnswered(0.5); // the storage answers: calls go on, their events wait in the outbox
      rabbit.up();
      load.assertEveryDistinctCreditLandedOnce();
      assertOneWarnThenOneInfoPerPart(log, "Publishing the outbox of billing.topups");
    }
  }

  @Test
  void postgresAwayUnderLoad_eachPartLogsOneWarnThenOneInfo() throws Exception {
    try (CapturedLog log = CapturedLog.start();
        TcpProxy postgres =
            TcpProxy.start(postgresPort, Server.POSTGRES.host(), Server.POSTGRES.port());
        TcpProxy rabbit =
            TcpProxy.start(rabbitPort, Server.RABBITMQ.host(), Server.RABBITMQ.port());
        Toa shop = boot()) {
      ShopLoad load = ShopLoad.start(shop, 8, 300, 4, BOUND);
      load.awaitAnswered(0.3);
      postgres.down();
      await()
          .atMost(BOUND)
          .until(() -> !log.lines(" WARN ", "The outbox of", " fails: ").isEmpty());
      postgres.up();
      load.assertEveryDistinctCreditLandedOnce();
      assertOneWarnThenOneInfoPerPart(log, "The outbox of");
    }
  }

  @Test
  void startedWhilePostgresIsAway_servesOnceItIsBack() throws Exception {
    try (TcpProxy postgres =
            TcpProxy.start(postgresPort, Server.POSTGRES.host(), Server.POSTGRES.port());
        TcpProxy rabbit =
            TcpProxy.start(rabbitPort, Server.RABBITMQ.host(), Server.RABBITMQ.port())) {
      postgres.down();
      assertServesOnceBack(postgres, "Waiting for the storage");
    }
  }

  @Test
  void startedWhileRabbitmqIsAway_servesOnceItIsBack() throws Exception {
    try (TcpProxy postgres =
            TcpProxy.start(postgresPort, Server.POSTGRES.host(), Server.POSTGRES.port());
        TcpProxy rabbit =
            TcpProxy.start(rabbitPort, Server.RABBITMQ.host(), Server.RABBITMQ.port())) {
      rabbit.down();
      assertServesOnceBack(rabbit, "Waiting for the bus");
    }
  }

  /**
   * Boots while the server behind the proxy is away; once booting waits for it, brings it back and
   * makes a call, which the process that waited answers.
   */
  private void assertServesOnceBack(TcpProxy away, String waiting) throws Exception {
    try (CapturedLog log = CapturedLog.start()) {
      CompletableFuture<Toa> booting = CompletableFuture.supplyAsync(this::boot);
      try {
        await().atMost(BOUND).until(() -> !log.lines(" WARN ", waiting).isEmpty());
        // one failed attempt is logged; the next one comes within a second, so let one more fail
        // to bring it back in the middle of the wait, not at its start
        away.up();
        Toa shop = booting.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        try {
          Object answer =
              shop.call(
                  "billing.wallets.credit",
                  Request.of(
                      String.format("%032x", 0xbee0L),
                      Map.of("amount", 5, "type", "goodwill", "ref", "g_back")),
                  "credit-back");
          assertThat(answer).isInstanceOf(Reply.Output.class);
          assertThat(
                  Shop.output(
                      shop.call(
                          "billing.wallets.observe", Request.id(String.format("%032x", 0xbee0L)))))
              .containsEntry("balance", 5L);
        } finally {
          shop.close();
        }
      } finally {
        booting.cancel(true);
      }
    }
  }

  /**
   * Every part that logged a failure logged it once, as a WARN, and its return once, as an INFO;
   * among them {@code expected}; and no line of toa4j came with a stack trace.
   */
  private static void assertOneWarnThenOneInfoPerPart(CapturedLog log, String expected) {
    Set<String> parts = new TreeSet<>();
    for (String line : log.lines(" WARN io.toa4j.", " fails: ")) {
      String text = line.substring(line.indexOf(" - ") + 3);
      parts.add(text.substring(0, text.indexOf(" fails: ")));
    }
    assertThat(parts).as("the parts that failed").anyMatch(part -> part.startsWith(expected));
    await()
        .atMost(BOUND)
        .untilAsserted(
            () -> {
              for (String part : parts) {
                assertThat(log.lines(" INFO io.toa4j.", " - " + part + " is back after "))
                    .as("%s is back, once", part)
                    .hasSize(1);
              }
            });
    for (String part : parts) {
      assertThat(log.lines(" WARN io.toa4j.", " - " + part + " fails: "))
          .as("%s fails, once", part)
          .hasSize(1);
    }
    List<String> traced = log.withStackTraces("io.toa4j.");
    assertThat(traced).as("lines of toa4j with a stack trace").isEmpty();
  }
}
