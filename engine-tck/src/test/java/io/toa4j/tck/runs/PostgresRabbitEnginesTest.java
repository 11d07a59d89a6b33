package io.toa4j.tck.runs;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;

/**
 * The engine kit's suites on PostgreSQL for the storage and RabbitMQ for the bus, a database and a
 * virtual host of each test's own.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class PostgresRabbitEnginesTest extends RabbitEngines {
  @Override
  OwnServers servers() {
    return OwnServers.postgres();
  }

  @Override
  String ledgerInboxTable() {
    return "test_ledger.inbox";
  }
}
