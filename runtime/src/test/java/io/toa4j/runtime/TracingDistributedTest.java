package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The trace of a top-up on PostgreSQL and RabbitMQ, a database and a virtual host of the test's
 * own: the top-ups hosted by one process, the wallets by another, one trace across both.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class TracingDistributedTest extends TracingContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }

  @Override
  List<List<String>> processes() {
    return List.of(List.of("billing.topups"), List.of("billing.wallets"));
  }

  @Override
  String bus() {
    return "rabbitmq";
  }

  @Override
  Map<String, String> busOptions() {
    return Map.of("url", engines.environment.get("TOA_BUS_URL"));
  }
}
