package io.toa4j.tck.runs;

import io.toa4j.runtime.Options;
import io.toa4j.tck.engine.LateRepeatContract;
import io.toa4j.tck.engine.TurnsContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine kit's suites on MariaDB for the storage and RabbitMQ for the bus: MariaDB and
 * RabbitMQ, a database and a virtual host of each test's own.
 */
@Needs({Server.MARIADB, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class MariadbRabbitEnginesTest {
  @Nested
  class Turns extends TurnsContract {
    @RegisterExtension final OwnServers servers = OwnServers.mariadb();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }
  }

  @Nested
  class LateRepeat extends LateRepeatContract {
    @RegisterExtension final OwnServers servers = OwnServers.mariadb();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }

    @Override
    protected long[] inbox() throws Exception {
      return servers.counts("SELECT count(*), count(reply) FROM test_ledger_inbox");
    }
  }
}
