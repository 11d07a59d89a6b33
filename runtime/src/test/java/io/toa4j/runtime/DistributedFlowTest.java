package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's top-up flow on the distributed engines: the shop's records, outbox and inbox on
 * PostgreSQL (a database of the test's own), its events on RabbitMQ (a virtual host of the test's
 * own), chosen by TOA_* settings over an unchanged context.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class DistributedFlowTest {
  static final Duration SETTLE = Duration.ofSeconds(60);

  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  private Toa boot() {
    return Toa.builder()
        .directory(directory)
        .options(Options.defaults().withEnvironment(engines.environment))
        .build();
  }

  private static Request record() {
    return Request.of(
        SeedFlowTest.TOPUP,
        Map.of(
            "checkout",
            "co_1",
            "customer",
            SeedFlowTest.CUSTOMER,
            "amount",
            5000,
            "currency",
            "USD"));
  }

  private static Map<String, Object> wallet(Toa shop) {
    return Shop.output(shop.call("billing.wallets.observe", Request.id(SeedFlowTest.CUSTOMER)));
  }

  @Test
  void sameCheckoutRecordedTwice_andPaidDeliveredTwice_creditOnce() throws Exception {
    Shop.copyTo(directory);
    try (Toa shop = boot()) {
      shop.call("billing.topups.record", record());
      shop.call("billing.topups.record", record());
      assertThat(shop.admin().settle(SETTLE)).isEmpty();
      assertThat(wallet(shop)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);

      try (Bus second = engines.secondBus(directory)) {
        second.publish(paidAgain());
      }
      assertThat(shop.admin().settle(SETTLE)).isEmpty();

      assertThat(wallet(shop)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(shop.metrics().find("toa.inbox.answers").counter().count()).isEqualTo(1);
    }
    try (Toa again = boot()) {
      assertThat(wallet(again))
          .as("the state is in PostgreSQL, not in the process")
          .containsEntry("balance", 5000L);
    }
  }

  @Test
  void boot_waitsForPostgresAndRabbitMq_thatComeUpAfterIt() throws Exception {
    Shop.copyTo(directory);
    int postgresPort = TcpProxy.freePort();
    int rabbitPort = TcpProxy.freePort();
    AtomicInteger waits = new AtomicInteger();
    Options options =
        Options.defaults()
            .withEnvironment(
                DistributedEngines.environment(
                    Server.POSTGRES.url(engines.name, postgresPort),
                    Server.RABBITMQ.url(engines.name, rabbitPort)))
            .withStartupWait(Duration.ofMinutes(2))
            .withSleeper(
                millis -> {
                  waits.incrementAndGet();
                  Thread.sleep(millis);
                });
    CompletableFuture<Toa> booting =
        CompletableFuture.supplyAsync(
            () -> Toa.builder().directory(directory).options(options).build());
    TcpProxy postgres = null;
    TcpProxy rabbit = null;
    try {
      await().atMost(SETTLE).until(() -> waits.get() >= 1);
      assertThat(booting).as("nothing answers yet: it waits").isNotDone();
      postgres = TcpProxy.start(postgresPort, Server.POSTGRES.host(), Server.POSTGRES.port());
      TcpProxy storage = postgres;
      int before = waits.get();
      await().atMost(SETTLE).until(() -> storage.accepted() > 0 && waits.get() > before);
      assertThat(booting).as("the storage answers, the bus not yet: it waits").isNotDone();
      rabbit = TcpProxy.start(rabbitPort, Server.RABBITMQ.host(), Server.RABBITMQ.port());
      try (Toa shop = booting.get(SETTLE.toSeconds(), TimeUnit.SECONDS)) {
        shop.call("billing.topups.record", record());
        assertThat(shop.admin().settle(SETTLE)).isEmpty();
        assertThat(wallet(shop)).containsEntry("balance", 5000L);
      }
    } finally {
      booting.cancel(true);
      if (postgres != null) postgres.close();
      if (rabbit != null) rabbit.close();
    }
  }

  /** The paid event of the only top-up, as its outbox entry in PostgreSQL renders it. */
  private Message paidAgain() throws Exception {
    try (Connection c = engines.database();
        ResultSet r =
            c.createStatement()
                .executeQuery("SELECT id, change::text FROM billing_topups.outbox")) {
      assertThat(r.next()).isTrue();
      var change = Binding.VALUES.readTree(r.getString(2));
      String label = "billing.topups.paid";
      return new Message(
          Identities.derive(r.getString(1), label),
          label,
          Binding.json(change.get("state")),
          Map.of("version", "1"));
    }
  }
}
