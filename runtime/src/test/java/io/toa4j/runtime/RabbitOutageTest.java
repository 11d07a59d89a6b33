package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * RabbitMQ lost under load, while the shop's clients go on: events recorded meanwhile wait in the
 * outbox, deliveries that were in flight come again, and afterwards every wallet holds the sum of
 * its distinct credits, none lost, none doubled. Once out of reach twice (connections cut, new ones
 * refused for a while), once restarted for real (with rabbitmqctl, which makes the virtual hosts as
 * well).
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class RabbitOutageTest {
  static final Duration BOUND = Duration.ofMinutes(5);

  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @BeforeEach
  void copyTheShop() throws Exception {
    Shop.copyTo(directory);
  }

  private Toa boot(Map<String, String> environment) {
    return Toa.builder()
        .directory(directory)
        .options(Options.defaults().withEnvironment(environment))
        .build();
  }

  @Test
  void brokerUnreachableTwiceMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    int port = TcpProxy.freePort();
    Map<String, String> throughProxy =
        DistributedEngines.environment(
            Server.POSTGRES.url(engines.name), Server.RABBITMQ.url(engines.name, port));
    try (TcpProxy rabbit = TcpProxy.start(port, Server.RABBITMQ.host(), Server.RABBITMQ.port());
        Toa shop = boot(throughProxy)) {
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
      assertThat(rabbit.accepted())
          .as("the bus connected again after each outage")
          .isGreaterThanOrEqualTo(4);
    }
  }

  @Test
  void brokerRestartedMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    try (Toa shop = boot(engines.environment)) {
      ShopLoad load = ShopLoad.start(shop, 8, 600, 6, BOUND);
      load.awaitAnswered(0.3);
      VirtualHosts.restartBroker();
      load.assertEveryDistinctCreditLandedOnce();
    }
  }
}
