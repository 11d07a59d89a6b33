package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.StoredRecord;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The record of {@code system.messages} a parking writes, as the runtime writes and reads it, on
 * both pairs of engines ({@link Contexts#parkedEvents}): a parking a process committed and died
 * before announcing, and a discard. The rest of parked messages as events is the engine kit's
 * {@code ParkedEventsContract}, on every pair of engines.
 */
class ParkedRecordTest {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String FUSSY = "test.orders.created..test.fussy";
  static final String PICKY = "test.orders.created..test.picky";

  /** On SQLite files and the embedded bus. */
  @Nested
  class Embedded extends Records {
    @Override
    Options options() {
      return Options.defaults();
    }

    @Override
    Bus secondBus() {
      for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
        if (p.name().equals("embedded"))
          return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), Clock.systemUTC()));
      }
      throw new AssertionError("no embedded bus");
    }
  }

  /** On PostgreSQL and RabbitMQ, a database and a virtual host of the test's own. */
  @Nested
  @Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
  class Distributed extends Records {
    @RegisterExtension final DistributedEngines engines = new DistributedEngines();

    @Override
    Options options() {
      return Options.defaults().withEnvironment(engines.environment);
    }

    @Override
    Bus secondBus() {
      return engines.secondBus(directory);
    }
  }

  abstract static class Records {
    @TempDir Path directory;

    /** The options that choose the engines under test. */
    abstract Options options();

    /** A second bus on the context's, beside (or without) the running one. */
    abstract Bus secondBus();

    private Toa boot() {
      return Toa.builder().directory(directory).options(options()).build();
    }

    private Toa client() {
      return Toa.builder().directory(directory).options(options()).connect();
    }

    /** The pager's notes, read from its store. */
    private static List<JsonNode> notes(Toa app) {
      return app.storage().store("test.pager").page(1000, 0).stream()
          .<JsonNode>map(r -> Binding.object(r.state()))
          .toList();
    }

    private static StoredRecord record(Toa app, String message, String queue) {
      return app.storage()
          .store(SystemMessages.LABEL)
          .read(SystemMessages.key(message, queue))
          .orElseThrow();
    }

    private static void settled(Toa app) {
      assertThat(app.admin().settle(SETTLE)).isEmpty();
    }

    @Test
    void parking_afterACrashBetweenParkingAndPublishing_isAnnouncedOnce() {
      Contexts.parkedEvents(directory, false);
      try (Toa app = boot()) { // declares the queues, as the process that dies had
        settled(app);
      }
      Message event =
          new Message(
              "00000000000000000000000000000abc",
              "test.orders.created",
              new Json("{\"id\":\"x\",\"amount\":-1}"),
              Map.of());
      // What a process leaves that committed the parking and died before its bus kept the park
      // verdict and before it published the event: the record parked, its entry unpublished, and
      // the message still on its queue.
      try (Toa client = client();
          Bus bus = secondBus()) {
        SystemMessages dead =
            new SystemMessages(
                client.context(),
                () -> client.storage().store(SystemMessages.LABEL),
                Redelivery.consumed(client.context()),
                Clock.systemUTC(),
                new SecureRandom(),
                Optional.empty());
        dead.parked(
            new Delivery(event, FUSSY, 1),
            "CONTRACT",
            "input /amount must be at least 0",
            new io.toa4j.api.Failure(
                io.toa4j.api.Failure.Code.CONTRACT, "input /amount must be at least 0"));
        bus.send(FUSSY, event);
      }

      try (Toa app = boot()) {
        await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
        settled(app);

        assertThat(notes(app))
            .as("the leftover entry published, the second parking committing nothing")
            .hasSize(1);
        assertThat(notes(app).get(0).path("message").asString()).isEqualTo(event.id());
        assertThat(record(app, event.id(), FUSSY).version()).isEqualTo(1);
      }
    }

    @Test
    void discard_leavesTheRecordDiscarded_withItsReason() {
      Contexts.parkedEvents(directory, false);
      try (Toa app = boot()) {
        app.call("test.orders.place", Request.of(String.format("%032x", 1), Map.of("amount", -1)));
        await().atMost(SETTLE).until(() -> app.admin().parked().size() == 2);
        settled(app);
        Parked pick =
            app.admin().parked().stream()
                .filter(p -> p.queue().equals(PICKY))
                .findFirst()
                .orElseThrow();

        assertThat(app.admin().discard(pick.id(), "a test's", "the test")).isTrue();

        StoredRecord record = record(app, pick.message().id(), PICKY);
        JsonNode state = Binding.object(record.state());
        assertThat(state.path("state").asString()).isEqualTo("discarded");
        assertThat(state.path("discardReason").asString()).isEqualTo("a test's");
        assertThat(record.version()).as("parked, then discarded").isEqualTo(2);
        ParkedHistory history = app.admin().history(pick).orElseThrow();
        assertThat(history.failures())
            .singleElement()
            .satisfies(f -> assertThat(f.code()).isEqualTo("CONTRACT"));
        assertThat(history.actions())
            .singleElement()
            .satisfies(
                a -> {
                  assertThat(a.action()).isEqualTo("discarded");
                  assertThat(a.by()).isEqualTo("the test");
                  assertThat(a.reason()).hasValue("a test's");
                });
      }
    }
  }
}
