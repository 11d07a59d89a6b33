package io.toa4j.runtime;

import static io.toa4j.runtime.SourcesAndSinks.emit;
import static io.toa4j.runtime.SourcesAndSinks.received;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bus with only the roles every bus has, publishing and consuming: no calls, no parking
 * (docs/engines.md). A context that runs whole in one process needs neither; a process that hosts
 * only some components is refused at start, saying why ({@link BusRolesDistributedTest}); an
 * operator asking for the parked messages is told they cannot be reached here.
 */
class BusRolesTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir Path directory;

  @Test
  void aWholeContextOnABusWithoutCallsOrParking_runs_andItsParkedMessagesAreSaidOutOfReach() {
    InterceptedBus bus =
        new InterceptedBus("core-only", "embedded", (events, proceed) -> proceed.accept(events))
            .withoutRoles();
    try (Toa app =
        Toa.builder()
            .directory(Contexts.sourceAndSink(directory))
            .engine(bus)
            .bus(bus.name(), Map.of())
            .options(Options.defaults().withEnvironment(Map.of()))
            .build()) {
      app.call("test.sources.emit", emit(1));

      await().atMost(PATIENCE).until(() -> received(app, 1).equals(List.of(1L)));
      assertThatThrownBy(() -> app.admin().parked())
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining(
              "keeps its parked messages where they cannot be listed, replayed or discarded from here");
      assertThat(app.metrics().find(Toa.PARKED_GAUGE).gauge())
          .as("no gauge of what cannot be counted")
          .isNull();
    }
  }

  @Test
  void aContextThatHostsNothing_onABusWithoutCalls_cannotCall_andIsToldWhy() {
    InterceptedBus bus =
        new InterceptedBus("core-only", "embedded", (events, proceed) -> proceed.accept(events))
            .withoutRoles();
    try (Toa client =
        Toa.builder()
            .directory(Contexts.sourceAndSink(directory))
            .engine(bus)
            .bus(bus.name(), Map.of())
            .options(Options.defaults().withEnvironment(Map.of()))
            .connect()) {
      assertThatThrownBy(() -> client.call("test.sources.emit", emit(1)))
          .isInstanceOf(Failure.class)
          .hasMessageContaining(
              "emit cannot be called from a process that does not host test.sources")
          .hasMessageContaining("carries no calls")
          .satisfies(e -> assertThat(((Failure) e).code()).isEqualTo(Failure.Code.UNAVAILABLE));
    }
  }
}
