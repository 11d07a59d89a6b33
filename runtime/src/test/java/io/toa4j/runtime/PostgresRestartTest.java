package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.postgres.PostgresCluster;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL crashes under load — a cluster of the test's own, stopped at once and started again,
 * twice — while the shop's clients go on: afterwards every wallet holds the sum of its distinct
 * credits, none lost, none doubled, whatever the crashes interrupted. The cluster is on this
 * machine whatever {@code TOA_POSTGRES_URL} says; the virtual host is on the tests' RabbitMQ.
 */
@Needs({Server.RABBITMQ, Server.RABBITMQ_CONTROL, Server.POSTGRES_PROGRAMS})
class PostgresRestartTest {
  @TempDir Path directory;

  @Test
  void crashedTwiceMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    String name = VirtualHosts.freshName();
    try (PostgresCluster postgres = PostgresCluster.start()) {
      postgres.createDatabase(name);
      VirtualHosts.create(name);
      try {
        Shop.copyTo(directory);
        // every client calling throughout, none held back while the credits lag
        // (docs/backpressure.md):
        // the crashes are to meet calls in flight
        Options options =
            Options.defaults()
                .withEnvironment(
                    DistributedEngines.environment(postgres.url(name), Server.RABBITMQ.url(name)))
                .withBacklog(0, Options.BACKLOG_WAIT);
        try (Toa shop = Toa.builder().directory(directory).options(options).build()) {
          // the clients call until both crashes are over and calls are answered again after them,
          // so each crash meets calls in flight however fast the machine
          ShopLoad load = ShopLoad.start(shop, 8, Integer.MAX_VALUE, 6, Duration.ofMinutes(5));
          load.awaitAnswered(300);
          postgres.restart();
          load.awaitAnswered(load.answered() + 300);
          postgres.restart();
          load.awaitAnswered(load.answered() + 300);
          load.stop();
          load.assertEveryDistinctCreditLandedOnce();
          assertThat(load.repeated())
              .as("the crashes interrupted calls, which were repeated")
              .isPositive();
        }
      } finally {
        VirtualHosts.delete(name);
      }
    }
  }
}
