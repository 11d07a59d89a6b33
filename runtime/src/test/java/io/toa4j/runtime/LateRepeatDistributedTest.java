package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Late repeats on the distributed engines: PostgreSQL and RabbitMQ, a database and a virtual host
 * of the test's own.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class LateRepeatDistributedTest extends LateRepeatContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }

  @Override
  long[] inbox() throws Exception {
    try (Connection c = engines.database();
        ResultSet r =
            c.createStatement()
                .executeQuery("SELECT count(*), count(reply) FROM test_ledger.inbox")) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }
}
