package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RabbitMQ lost under load, while the shop's clients go on: events recorded meanwhile wait in the
 * outbox, deliveries that were in flight come again, and afterwards every wallet holds the sum of
 * its distinct credits, none lost, none doubled. Once out of reach twice (connections cut, new
 * ones refused for a while), once restarted for real.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ})
class RabbitOutageTest {
  static final Duration BOUND = Duration.ofMinutes(5);

  @TempDir Path directory;
  String name;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    name = VirtualHosts.freshName();
    try (Connection c = DriverManager.getConnection(DistributedFlowTest.ADMIN); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    VirtualHosts.create(name);
    Shop.copyTo(directory);
  }

  @AfterEach
  void dropThem() throws Exception {
    VirtualHosts.delete(name);
    try (Connection c = DriverManager.getConnection(DistributedFlowTest.ADMIN); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  private Application boot(int rabbitPort) {
    return Application.boot(directory, Options.defaults().withEnvironment(Map.of(
        "TOA_STORAGE", "postgres",
        "TOA_STORAGE_URL", "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres",
        "TOA_BUS", "rabbitmq",
        "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:" + rabbitPort + "/" + name)));
  }

  @Test
  void brokerUnreachableTwiceMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    int port = TcpProxy.freePort();
    try (TcpProxy rabbit = TcpProxy.start(port, "127.0.0.1", 5672); Application shop = boot(port)) {
      ShopLoad load = ShopLoad.start(shop, 8, 600, 6, BOUND);
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
  }

  @Test
  void brokerRestartedMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    try (Application shop = boot(5672)) {
      ShopLoad load = ShopLoad.start(shop, 8, 600, 6, BOUND);
      load.awaitAnswered(0.3);
      VirtualHosts.restartBroker();
      load.assertEveryDistinctCreditLandedOnce();
    }
  }
}
