package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed bus without calls (the RabbitMQ bus, its calls role hidden): no process may host a
 * part of a context on it.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class BusRolesDistributedTest {
  @TempDir Path directory;

  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  @Test
  void aSubsetOnADistributedBusWithoutCalls_isRefusedAtStart_sayingWhy() {
    InterceptedBus bus =
        new InterceptedBus(
                "rabbitmq-core-only", "rabbitmq", (events, proceed) -> proceed.accept(events))
            .withoutRoles();
    Map<String, String> storage =
        Map.of(
            "TOA_STORAGE",
            "postgres",
            "TOA_STORAGE_URL",
            engines.environment.get("TOA_STORAGE_URL"));

    assertThatThrownBy(
            () ->
                Toa.builder()
                    .directory(Contexts.sourceAndSink(directory))
                    .engine(bus)
                    .bus(bus.name(), Map.of("url", engines.environment.get("TOA_BUS_URL")))
                    .options(Options.defaults().withEnvironment(storage))
                    .host(Set.of("test.sources"))
                    .build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "which carries no calls: a process that hosts only test.sources could neither call the other components nor be called by them");
  }
}
