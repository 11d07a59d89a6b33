package io.toa4j.runtime;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Backpressure on the distributed engines: PostgreSQL and RabbitMQ, a database and a virtual host
 * of the test's own.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class BackpressureDistributedTest extends BackpressureContract {
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Override
  Toa app(Path context, InterceptedBus bus, Options options) {
    Map<String, String> storage =
        Map.of(
            "TOA_STORAGE",
            "postgres",
            "TOA_STORAGE_URL",
            engines.environment.get("TOA_STORAGE_URL"));
    return Toa.builder()
        .directory(context)
        .engine(bus)
        .bus(bus.name(), Map.of("url", engines.environment.get("TOA_BUS_URL")))
        .options(options.withEnvironment(storage))
        .build();
  }

  @Override
  String real() {
    return "rabbitmq";
  }
}
