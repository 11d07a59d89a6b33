package io.toa4j.bus.rabbitmq;

import io.toa4j.spi.Bus;
import io.toa4j.tck.bus.CallsContract;
import io.toa4j.tck.bus.ErrorAtAnyDepthContract;
import io.toa4j.tck.bus.ParkingContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;

/**
 * The bus contract, an Error at any depth included, against the real broker, with queue names of
 * its own per test.
 */
@Needs(Server.RABBITMQ)
class RabbitBusContractTest implements ErrorAtAnyDepthContract, CallsContract, ParkingContract {
  private final String prefix = Broker.uniquePrefix();
  private final Set<String> queues = ConcurrentHashMap.newKeySet();

  @Override
  public Bus open(Clock clock) {
    return Broker.open(clock);
  }

  @Override
  public String prefix() {
    return prefix;
  }

  @Override
  public String queue(String name) {
    String queue = ErrorAtAnyDepthContract.super.queue(name);
    queues.add(queue);
    return queue;
  }

  @AfterEach
  void cleanUp() throws Exception {
    Broker.cleanUp(queues);
  }
}
