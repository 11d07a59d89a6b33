package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusSettings;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * The broker the tests run against ({@link Server#url()}: {@code TOA_RABBITMQ_URL}, else the local
 * default, as the option {@code url}'s fallbacks have it), buses opened on it, and the clean-up of
 * what a test declared.
 */
final class Broker {
  private Broker() {}

  /** A prefix no other test (run) uses. */
  static String uniquePrefix() {
    return "toa-test-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  }

  static Bus open(Clock clock) {
    return open(clock, Map.of());
  }

  static Bus open(Clock clock, Map<String, String> options) {
    return new RabbitBusProvider().open(new BusSettings(Path.of("."), options, clock));
  }

  /**
   * Deletes the queues and their retry queues, and takes off the parked queue the messages parked
   * from them, leaving every other parked message where it was.
   */
  static void cleanUp(Collection<String> queues) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(Server.RABBITMQ.url());
    try (Connection connection = factory.newConnection("toa4j test clean-up");
        Channel channel = connection.createChannel()) {
      for (String queue : queues) {
        channel.queueDelete(queue);
        channel.queueDelete(Topology.retryQueue(queue));
      }
      long parked = channel.queueDeclarePassive(Topology.PARKED).getMessageCount();
      for (long i = 0; i < parked; i++) {
        GetResponse got = channel.basicGet(Topology.PARKED, false);
        if (got == null) break;
        if (queues.contains(Codec.text(got.getProps(), Codec.QUEUE))) {
          channel.basicAck(got.getEnvelope().getDeliveryTag(), false);
        }
      } // closing the channel gives the others back
    }
  }
}
