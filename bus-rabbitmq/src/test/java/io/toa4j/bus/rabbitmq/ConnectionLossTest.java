package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.testkit.bus.BusContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a caller sees while the bus has no connection to the broker. */
@Needs(Server.RABBITMQ)
class ConnectionLossTest {
  private final String queue = Broker.uniquePrefix() + "events";
  private final String label = queue + ".created";

  @AfterEach
  void cleanUp() throws Exception {
    Broker.cleanUp(List.of(queue));
  }

  @Test
  void publishAndSend_connectionLost_failWithAnExceptionNamingTheMessageAndBroker() {
    RabbitBus bus = (RabbitBus) Broker.open(Clock.systemUTC());
    try {
      bus.declare(queue, Set.of(label));
      bus.publish(BusContract.message("e0", label)); // a channel is pooled before the loss

      bus.crash();

      assertThatThrownBy(() -> bus.publish(BusContract.message("e1", label)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Cannot publish event e1 (" + label + ")")
          .hasMessageContaining("on RabbitMQ at amqp://");
      assertThatThrownBy(() -> bus.send(queue, BusContract.message("t1", "a.b.op")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Cannot send message t1 to queue " + queue);
    } finally {
      bus.close();
    }
  }
}
