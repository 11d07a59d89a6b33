package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Turns on the distributed engines: PostgreSQL and RabbitMQ, a database and a virtual host of the
 * test's own.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class TurnsDistributedTest extends TurnsContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }
}
