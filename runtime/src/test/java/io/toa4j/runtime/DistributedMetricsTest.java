package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operators' metrics on PostgreSQL and RabbitMQ: the shop's top-up timed as a call and a
 * commit, its paid event's lag to the wallets' receiver, and the gauges of the outbox backlog and
 * of a message parked on the broker.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class DistributedMetricsTest {
  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Test
  void aTopUp_isTimed_itsEventsLagRecorded_andAParkedMessageCounted() {
    Shop.copyTo(directory);
    try (Toa shop =
        Toa.builder()
            .directory(directory)
            .options(Options.defaults().withEnvironment(engines.environment))
            .build()) {
      shop.call(
          "billing.topups.record",
          Request.of(
              SeedFlowTest.TOPUP,
              Map.of(
                  "checkout",
                  "co_1",
                  "customer",
                  SeedFlowTest.CUSTOMER,
                  "amount",
                  5000,
                  "currency",
                  "USD")));
      assertThat(shop.admin().settle(DistributedFlowTest.SETTLE)).isEmpty();

      MeterRegistry metrics = shop.metrics();
      assertThat(
              metrics
                  .get(Engine.CALL_TIMER)
                  .tag("operation", "billing.topups.record")
                  .tag("outcome", "output")
                  .timer()
                  .count())
          .isEqualTo(1);
      assertThat(
              metrics
                  .get(Engine.COMMIT_TIMER)
                  .tag("component", "billing.topups")
                  .tag("outcome", "committed")
                  .timer()
                  .count())
          .isEqualTo(1);
      assertThat(metrics.get(Deliveries.LAG_TIMER).timers())
          .as("the paid event reached the wallets over RabbitMQ")
          .anySatisfy(lag -> assertThat(lag.getId().getTag("queue")).contains("billing.wallets"));
      assertThat(metrics.get(Toa.BACKLOG_GAUGE).tag("component", "billing.topups").gauge().value())
          .isZero();

      try (Bus second = engines.secondBus(directory)) {
        second.publish(
            new Message(
                "00000000000000000000000000000bad",
                "billing.topups.paid",
                new Json("{\"amount\": \"much\"}"),
                Map.of()));
      }
      await().atMost(DistributedFlowTest.SETTLE).until(() -> shop.admin().parked().size() == 1);
      await()
          .atMost(DistributedFlowTest.SETTLE)
          .until(() -> metrics.get(Toa.PARKED_GAUGE).gauge().value() == 1);
    }
  }
}
