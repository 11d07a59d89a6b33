package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task a process committed and never published, sent by the next process's sweep: the entry
 * written as the runtime writes it, through the storage a context hands its own parts. The rest of
 * the outbox of tasks is the engine kit's {@code TaskOutboxContract}, on every pair of engines.
 */
class TaskSweepTest {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String PARCEL = "0123456789abcdef0123456789abcdef";
  static final String NOTES = "fedcba9876543210fedcba9876543210";
  static final String QUEUE = "test.notes..tasks";

  /** On SQLite files and the embedded bus. */
  @Nested
  class Embedded extends Sweep {
    @Override
    Options options() {
      return Options.defaults();
    }
  }

  /** On PostgreSQL and RabbitMQ, a database and a virtual host of the test's own. */
  @Nested
  @Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
  class Distributed extends Sweep {
    @RegisterExtension final DistributedEngines engines = new DistributedEngines();

    @Override
    Options options() {
      return Options.defaults().withEnvironment(engines.environment);
    }
  }

  abstract static class Sweep {
    @TempDir Path directory;

    abstract Options options();

    /**
     * A process committed a dispatch and died before publishing its entry, a minute ago: the entry
     * is in the store, unpublished, its claim over. The next process's sweep sends the task, under
     * the identity committed, though the component announces no event.
     */
    @Test
    void entryLeftUnpublished_byAProcessThatDied_isSentByTheSweep() throws Exception {
      Path context = Contexts.courier(directory);
      long at = System.currentTimeMillis() - 60_000;
      String identity = Identities.derive("call-dead", 1);
      Task task =
          new Task(
              identity,
              "test.notes.note",
              Requests.tree(Request.of(NOTES, Map.of("note", "left"))));
      var state = Binding.VALUES.createObjectNode().put("bumped", false).put("dispatched", 1);
      try (Toa client = Toa.builder().directory(context).options(options()).connect()) {
        Write write =
            new Write(
                0,
                new StoredRecord(PARCEL, 1, at, at, Binding.json(state)),
                Optional.of(
                    new OutboxEntry(
                        Identities.ordered(at, new java.util.Random()),
                        at,
                        Optional.empty(),
                        Task.encode(List.of(task)),
                        at + Publisher.CLAIM_MILLIS)));
        assertThat(client.storage().store("test.courier").commit(write))
            .isEqualTo(Outcome.COMMITTED);
      }

      try (Toa app = Toa.builder().directory(context).options(options()).build()) {
        assertThat(app.admin().settle(SETTLE)).isEmpty();

        assertThat(sent(app)).isEqualTo(1);
        assertThat(notes(app))
            .containsEntry("received", 1L)
            .containsEntry("identities", Map.of(identity, true));
      }
    }

    private static double sent(Toa app) {
      return app.metrics().find("toa.messages").tag("queue", QUEUE).counters().stream()
          .mapToDouble(c -> c.count())
          .sum();
    }

    private static Map<String, Object> notes(Toa app) {
      return Shop.output(app.call("test.notes.observe", Request.id(NOTES)));
    }
  }
}
