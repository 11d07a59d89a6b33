package io.toa4j.tck.runs;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;

/**
 * The engine kit's suites on MariaDB for the storage and RabbitMQ for the bus, a database and a
 * virtual host of each test's own.
 */
@Needs({Server.MARIADB, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class MariadbRabbitEnginesTest extends RabbitEngines {
  @Override
  OwnServers servers() {
    return OwnServers.mariadb();
  }

  @Override
  String ledgerInboxTable() {
    return "test_ledger_inbox";
  }
}
