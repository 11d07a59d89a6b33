package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redelivery on the distributed engines: PostgreSQL (a database of the test's own) and RabbitMQ (a
 * virtual host of the test's own).
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class RedeliveryDistributedTest extends RedeliveryContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }
}
