package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Redelivery on the distributed engines: PostgreSQL (a database of the test's own) and RabbitMQ (a
 * virtual host of the test's own).
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class RedeliveryDistributedTest extends RedeliveryContract {
  DistributedEngines engines;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    engines = DistributedEngines.create();
  }

  @AfterEach
  void dropThem() throws Exception {
    engines.close();
  }

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }
}
