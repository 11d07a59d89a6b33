package io.toa4j.tck.runs;

import io.toa4j.tck.engine.EngineKit;
import io.toa4j.tck.engine.Engines;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine kit's suites on a server storage and RabbitMQ, a database and a virtual host of each
 * test's own ({@link #servers()}); a subclass names the storage.
 */
abstract class RabbitEngines extends EngineKit {
  @RegisterExtension final OwnServers servers = servers();

  /** A database of the storage's server and a virtual host, made before each test. */
  abstract OwnServers servers();

  /** The table of the inbox of the component {@code test.ledger}, as the storage names it. */
  abstract String ledgerInboxTable();

  @Override
  protected Engines engines() {
    return new Engines(
        servers.storageName(),
        Map.of("url", servers.storageUrl()),
        "rabbitmq",
        Map.of("url", servers.busUrl()));
  }

  @Override
  protected long[] ledgerInbox(Path directory) throws Exception {
    return servers.counts("SELECT count(*), count(reply) FROM " + ledgerInboxTable());
  }
}
