package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Parked messages as events, and bulk replay and discard, on the distributed engines: PostgreSQL (a
 * database of the test's own) and RabbitMQ (a virtual host of the test's own).
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class ParkedEventsDistributedTest extends ParkedEventsContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }

  @Override
  Bus secondBus() {
    return engines.secondBus(directory);
  }
}
