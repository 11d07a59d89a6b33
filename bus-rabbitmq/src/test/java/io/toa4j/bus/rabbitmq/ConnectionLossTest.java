package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.Response;
import io.toa4j.tck.bus.BusContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.time.Duration;
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

  @Test
  void request_connectionLostJustAfterACountFoundTheHost_failsRatherThanWaiting() {
    RabbitBus bus = (RabbitBus) Broker.open(Clock.systemUTC());
    try (var host = Broker.open(Clock.systemUTC())) {
      host.calls().orElseThrow().serve(queue, d -> d.message());
      assertThat(bus.request(queue, BusContract.message("c1", "a.b.op"), Duration.ofSeconds(30)))
          .isInstanceOf(Response.Answered.class); // the count that found the host holds a while

      bus.crash();

      assertThatThrownBy(
              () -> bus.request(queue, BusContract.message("c2", "a.b.op"), Duration.ofSeconds(30)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Cannot send call c2 (a.b.op) to queue " + queue);
    } finally {
      bus.close();
    }
  }
}
