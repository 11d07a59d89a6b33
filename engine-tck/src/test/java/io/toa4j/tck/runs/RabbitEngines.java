package io.toa4j.tck.runs;

import io.toa4j.runtime.Options;
import io.toa4j.tck.engine.BackpressureContract;
import io.toa4j.tck.engine.LateRepeatContract;
import io.toa4j.tck.engine.PublishingTogetherContract;
import io.toa4j.tck.engine.RedeliveryContract;
import io.toa4j.tck.engine.TaskOutboxContract;
import io.toa4j.tck.engine.TurnsContract;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engine kit's suites on a server storage and RabbitMQ, a database and a virtual host of each
 * test's own ({@link #servers()}); a subclass names the storage.
 */
abstract class RabbitEngines {
  /** A database of the storage's server and a virtual host, made before each test. */
  abstract OwnServers servers();

  /** The table of the inbox of the component {@code test.ledger}, as the storage names it. */
  abstract String ledgerInbox();

  @Nested
  class Turns extends TurnsContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }
  }

  @Nested
  class LateRepeat extends LateRepeatContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }

    @Override
    protected long[] inbox() throws Exception {
      return servers.counts("SELECT count(*), count(reply) FROM " + ledgerInbox());
    }
  }

  @Nested
  class Redelivery extends RedeliveryContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }
  }

  @Nested
  class TaskOutbox extends TaskOutboxContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(servers.environment());
    }
  }

  @Nested
  class PublishingTogether extends PublishingTogetherContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Map<String, String> storage() {
      return servers.storage();
    }

    @Override
    protected String bus() {
      return "rabbitmq";
    }

    @Override
    protected Map<String, String> busOptions() {
      return servers.busOptions();
    }
  }

  @Nested
  class Backpressure extends BackpressureContract {
    @RegisterExtension final OwnServers servers = RabbitEngines.this.servers();

    @Override
    protected Map<String, String> storage() {
      return servers.storage();
    }

    @Override
    protected String bus() {
      return "rabbitmq";
    }

    @Override
    protected Map<String, String> busOptions() {
      return servers.busOptions();
    }
  }
}
