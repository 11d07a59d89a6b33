package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.net.TcpProxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RabbitMQ out of reach under load, twice — every connection to it cut and new ones refused for a
 * while, as when the broker restarts — while the shop's clients go on: events recorded meanwhile
 * wait in the outbox, deliveries that were in flight come again, and afterwards every wallet holds
 * the sum of its distinct credits, none lost, none doubled.
 */
class RabbitOutageTest {
  @TempDir Path directory;

  @Test
  void brokerUnreachableTwiceMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    String name = VirtualHosts.freshName();
    try (Connection c = DriverManager.getConnection(DistributedFlowTest.ADMIN); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    VirtualHosts.create(name);
    int port = TcpProxy.freePort();
    try (TcpProxy rabbit = TcpProxy.start(port, "127.0.0.1", 5672)) {
      Shop.copyTo(directory);
      Options options = Options.defaults().withEnvironment(Map.of(
          "TOA_STORAGE", "postgres",
          "TOA_STORAGE_URL", "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres",
          "TOA_BUS", "rabbitmq",
          "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:" + port + "/" + name));
      try (Application shop = Application.boot(directory, options)) {
        ShopLoad load = ShopLoad.start(shop, 8, 600, 6, Duration.ofMinutes(5));
        load.awaitAnswered(0.2);
        rabbit.down();
        load.awaitAnswered(0.4); // the storage answers: calls go on, their events wait in the outbox
        rabbit.up();
        load.awaitAnswered(0.6);
        rabbit.down();
        load.awaitAnswered(0.8);
        rabbit.up();
        load.assertEveryDistinctCreditLandedOnce();
        assertThat(rabbit.accepted()).as("the bus connected again after each outage").isGreaterThanOrEqualTo(4);
      }
    } finally {
      VirtualHosts.delete(name);
      try (Connection c = DriverManager.getConnection(DistributedFlowTest.ADMIN); Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      }
    }
  }
}
