package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.spi.Parked;
import io.toa4j.tck.time.TestClock;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Continuous effects on both engine pairs: a run that fails after some steps goes on from the step
 * that failed — the steps before it not made again (counted by a callee that is not idempotent),
 * {@code now()}, {@code random()}, {@code id()} and a {@code step} given back as the first attempt
 * had them — a call that waits for a continuous effect is refused, and a step whose answer the
 * journal cannot keep parks the run with {@code UNRECORDABLE}.
 */
class ContinuityTest {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final String RUN = "0123456789abcdef0123456789abcdef";

  /** On SQLite files and the embedded bus. */
  @Nested
  class Embedded extends Runs {
    @Override
    Options options() {
      return Options.defaults();
    }
  }

  /** On PostgreSQL and RabbitMQ, a database and a virtual host of the test's own. */
  @Nested
  @Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
  class Distributed extends Runs {
    @RegisterExtension final DistributedEngines engines = new DistributedEngines();

    @Override
    Options options() {
      return Options.defaults().withEnvironment(engines.environment);
    }
  }

  abstract static class Runs {
    @TempDir Path directory;

    /** The options that choose the engines under test. */
    abstract Options options();

    private Toa boot() throws IOException {
      context(directory);
      return Toa.builder().directory(directory).options(options()).build();
    }

    private static Map<String, Object> record(Toa app, String component, String id) {
      return Shop.output(app.call(component + ".observe", Request.id(id)));
    }

    private static double retried(Toa app) {
      return app.metrics().find("toa.messages").tag("outcome", "retried").counters().stream()
          .mapToDouble(c -> c.count())
          .sum();
    }

    @Test
    void aRunThatFailsAfterItsSteps_goesOnFromTheStepThatFailed_eachStepMadeOnce()
        throws IOException {
      Path failing = Files.createFile(directory.resolve("failing"));
      try (Toa app = boot()) {
        app.call(
            "test.starter.start",
            Request.input(Map.of("id", RUN, "failing", failing.toString(), "big", false)));

        await().atMost(PATIENCE).until(() -> retried(app) >= 1);
        Map<String, Object> before = record(app, "test.notes", RUN);
        assertThat(before).containsEntry("phase", "before");
        Files.delete(failing);

        await()
            .atMost(PATIENCE)
            .until(() -> "after".equals(record(app, "test.notes", RUN).get("phase")));
        Map<String, Object> after = record(app, "test.notes", RUN);
        assertThat(record(app, "test.counter", RUN))
            .as("two calls made before the failure, each once, not again on resume")
            .containsEntry("count", 2L);
        assertThat(after.get("t")).as("now()").isEqualTo(before.get("t"));
        assertThat(after.get("r")).as("random()").isEqualTo(before.get("r"));
        assertThat(after.get("i")).as("id()").isEqualTo(before.get("i"));
        assertThat(after.get("booked")).as("a step's answer").isEqualTo(before.get("booked"));
        assertThat(after.get("bookings")).as("the step's work ran once").isEqualTo(1L);
        assertThat(app.admin().settle(PATIENCE)).isEmpty();
        assertThat(app.admin().parked()).isEmpty();
      }
    }

    @Test
    void aParkedRun_showsItsJournal_replayGoesOnFromTheFailedStep_restartRunsItFromTheTop()
        throws IOException {
      Path failing = Files.createFile(directory.resolve("failing-permanent"));
      try (Toa app = boot()) {
        app.call(
            "test.starter.start",
            Request.input(Map.of("id", RUN, "failing", failing.toString(), "big", false)));
        await().atMost(PATIENCE).until(() -> app.admin().parked().size() == 1);
        Parked parked = app.admin().parked().get(0);
        assertThat(parked.code()).isEqualTo("CONTRACT");

        List<JournaledStep> journal = app.admin().journal(parked);
        assertThat(journal)
            .extracting(JournaledStep::asked)
            .startsWith("now #1", "random #1", "id #1", "step book #1")
            .anyMatch(step -> step.startsWith("call test.counter.bump ") && step.endsWith(" #2"))
            .anyMatch(step -> step.startsWith("call test.notes.note ") && step.contains("before"))
            .hasSize(7);
        assertThat(journal).allSatisfy(step -> assertThat(step.bytes()).isPositive());

        Files.delete(failing);
        assertThat(app.admin().replay(parked.id(), "the test")).isTrue();
        await()
            .atMost(PATIENCE)
            .until(() -> "after".equals(record(app, "test.notes", RUN).get("phase")));
        assertThat(record(app, "test.counter", RUN))
            .as("replayed, it went on from the failed step")
            .containsEntry("count", 2L);

        Path again = Files.createFile(directory.resolve("again-permanent"));
        app.call(
            "test.starter.start",
            Request.input(Map.of("id", RUN, "failing", again.toString(), "big", false)));
        await().atMost(PATIENCE).until(() -> app.admin().parked().size() == 1);
        Parked second = app.admin().parked().get(0);
        assertThat(record(app, "test.counter", RUN)).containsEntry("count", 4L);
        Files.delete(again);

        assertThat(app.admin().restart(second.id(), "the test")).isTrue();
        await()
            .atMost(PATIENCE)
            .until(() -> ((Number) record(app, "test.counter", RUN).get("count")).longValue() == 6);
        assertThat(app.admin().settle(PATIENCE)).isEmpty();
        assertThat(record(app, "test.counter", RUN))
            .as("restarted from the top, its two calls made again (the counter declares no once)")
            .containsEntry("count", 6L);
        assertThat(app.admin().restart("no such id", "the test")).isFalse();
      }
    }

    @Test
    void journals_goOnceTheWindowPassedSinceTheirLastStep_aRunStillInItKeptWhole()
        throws IOException {
      try (Toa app = boot()) {
        TestClock clock = new TestClock();
        Continuity journal =
            new Continuity(
                () -> app.storage().store(SystemStores.label(Continuity.STORE)),
                clock,
                new java.util.Random(1));
        JsonNode answer = JsonNodeFactory.instance.numberNode(1);
        journal.record("run-a", "now #1", answer, 600);
        clock.advance(Duration.ofSeconds(300));
        journal.record("run-b", "now #1", answer, 600);
        journal.record("run-a", "id #1", answer, 600);
        clock.advance(Duration.ofSeconds(301));

        assertThat(journal.purge(clock.millis(), 1000))
            .as("run-a's first step is past its window, and its last is not: the run stays whole")
            .isZero();
        assertThat(journal.recorded("run-a", "now #1")).isPresent();

        clock.advance(Duration.ofSeconds(600));
        assertThat(journal.purge(clock.millis(), 1000)).isEqualTo(3);
        assertThat(journal.recorded("run-a", "now #1")).isEmpty();
        assertThat(journal.recorded("run-a", "id #1")).isEmpty();
        assertThat(journal.recorded("run-b", "now #1")).isEmpty();
      }
    }

    @Test
    void copiesOfARunAtOnce_agreeOnTheFirstRecordedAnswerOfAStep() throws Exception {
      try (Toa app = boot()) {
        Continuity journal =
            new Continuity(
                () -> app.storage().store(SystemStores.label(Continuity.STORE)),
                app.clock(),
                new java.util.Random(1));
        int copies = 8;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(copies);
        java.util.concurrent.ExecutorService threads =
            java.util.concurrent.Executors.newFixedThreadPool(copies);
        try {
          java.util.List<java.util.concurrent.Future<JsonNode>> answers =
              new java.util.ArrayList<>();
          for (int copy = 0; copy < copies; copy++) {
            JsonNode mine = JsonNodeFactory.instance.numberNode(copy);
            answers.add(
                threads.submit(
                    () -> {
                      start.await();
                      return journal.record(RUN, "random #1", mine, 600);
                    }));
          }
          java.util.Set<JsonNode> agreed = new java.util.HashSet<>();
          for (var answer : answers)
            agreed.add(answer.get(60, java.util.concurrent.TimeUnit.SECONDS));
          assertThat(agreed).hasSize(1);
          assertThat(journal.recorded(RUN, "random #1")).contains(agreed.iterator().next());
        } finally {
          threads.shutdownNow();
        }
      }
    }

    @Test
    void aCallThatWaitsForAContinuousEffect_isRefused_sayingHowItRuns() throws IOException {
      try (Toa app = boot()) {
        assertThatThrownBy(
                () ->
                    app.call(
                        "test.flow.go",
                        Request.input(Map.of("id", RUN, "failing", "none", "big", false))))
            .isInstanceOfSatisfying(
                Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
            .hasMessageContaining("test.flow.go is continuous: it runs only where nobody waits");
        assertThat(app.storage().store("test.counter").read(RUN)).as("nothing ran").isEmpty();
      }
    }

    @Test
    void aStepWhoseAnswerTheJournalCannotKeep_parksTheRun_unrecordable() throws IOException {
      try (Toa app = boot()) {
        app.call(
            "test.starter.start", Request.input(Map.of("id", RUN, "failing", "none", "big", true)));

        await().atMost(PATIENCE).until(() -> app.admin().parked().size() == 1);
        Parked parked = app.admin().parked().get(0);
        assertThat(parked.code()).isEqualTo("UNRECORDABLE");
        assertThat(parked.reason())
            .contains("the answer of the step 'step book #1' of the continuous run")
            .contains("a journal keeps at most " + Continuity.MOST_BYTES);
      }
    }
  }

  /**
   * A starter that sends the task; a flow, continuous, that asks the time, a random number and an
   * id, books through a step, bumps a counter twice, notes what it has, fails while a file exists,
   * and notes again; a counter that is not idempotent; and the notes.
   */
  static void context(Path directory) throws IOException {
    write(
        directory,
        "context.toa.yaml",
        "name: test\ndelivery: { retries: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] }\n");
    write(
        directory,
        "components/test.starter/manifest.toa.yaml",
        "operations:\n  start: { type: effect, input: { type: object } }\n");
    write(
        directory,
        "components/test.starter/operations/Start.java",
        """
        package test.starter.operations;
        public class Start implements io.toa4j.api.Effect<Start.Input> {
          public record Input(String id, String failing, boolean big) {}
          public Object effect(Input in, io.toa4j.api.Context context) {
            context.remote("test.flow").task("go", io.toa4j.api.Request.input(
                java.util.Map.of("id", in.id(), "failing", in.failing(), "big", in.big())));
            return null;
          }
        }
        """);
    write(
        directory,
        "components/test.flow/manifest.toa.yaml",
        """
        operations:
          go:
            type: effect
            input:
              type: object
              properties: { id: { type: string }, failing: { type: string }, big: { type: boolean } }
        continuity:
          go: 600
        """);
    write(
        directory,
        "components/test.flow/operations/Go.java",
"""
        package test.flow.operations;
        import io.toa4j.api.Request;
        import java.util.List;
import java.util.Map;
        public class Go implements io.toa4j.api.Effect<Go.Input> {
          public record Input(String id, String failing, boolean big) {}
          static final java.util.concurrent.atomic.AtomicLong BOOKINGS = new java.util.concurrent.atomic.AtomicLong();
          public Object effect(Input in, io.toa4j.api.Context context) {
            long t = context.now().toEpochMilli();
            double r = context.random();
            String i = context.id();
            String booked = context.step("book", String.class, () -> {
              BOOKINGS.incrementAndGet();
              return in.big() ? "x".repeat(100_000) : "parcel-" + i.substring(0, 8);
            });
            context.remote("test.counter").call("bump", Request.of(in.id(), Map.of()));
            context.remote("test.counter").call("bump", Request.of(in.id(), Map.of()));
            Map<String, Object> note = Map.of("t", t, "r", r, "i", i, "booked", booked, "bookings", BOOKINGS.get());
            context.remote("test.notes").call("note", Request.of(in.id(), with(note, "before")));
            if (java.nio.file.Files.exists(java.nio.file.Path.of(in.failing()))) {
              if (in.failing().endsWith("-permanent"))
                throw new io.toa4j.api.Failure(io.toa4j.api.Failure.Code.CONTRACT, "refusing while " + in.failing() + " exists");
              throw new IllegalStateException("failing while " + in.failing() + " exists");
            }
            context.remote("test.notes").call("note", Request.of(in.id(), with(note, "after")));
            return null;
          }
          private static Map<String, Object> with(Map<String, Object> note, String phase) {
            java.util.Map<String, Object> all = new java.util.HashMap<>(note);
            all.put("phase", phase);
            all.put("bookings", BOOKINGS.get());
            return all;
          }
        }
        """);
    write(
        directory,
        "components/test.counter/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            count: { type: integer }
        operations:
          bump: { type: transition, concurrency: retry, input: { type: object } }
        """);
    write(
        directory,
        "components/test.counter/Counter.java",
        "package test.counter;\npublic class Counter extends io.toa4j.api.Entry { public long count; }\n");
    write(
        directory,
        "components/test.counter/operations/Bump.java",
        """
        package test.counter.operations;
        public class Bump implements io.toa4j.api.Transition<Bump.Input, test.counter.Counter> {
          public record Input() {}
          public Object transition(Input input, test.counter.Counter entry) {
            entry.count = entry.count + 1;
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.notes/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            phase: { type: string }
            t: { type: integer }
            r: { type: number }
            i: { type: string }
            booked: { type: string }
            bookings: { type: integer }
        operations:
          note:
            type: transition
            concurrency: retry
            input: { type: object }
        """);
    write(
        directory,
        "components/test.notes/Note.java",
        """
        package test.notes;
        public class Note extends io.toa4j.api.Entry {
          public String phase, i, booked;
          public Long t, bookings;
          public Double r;
        }
        """);
    write(
        directory,
        "components/test.notes/operations/Note.java",
        """
        package test.notes.operations;
        public class Note implements io.toa4j.api.Transition<test.notes.operations.Note.Input, test.notes.Note> {
          public record Input(String phase, Long t, Double r, String i, String booked, Long bookings) {}
          public Object transition(Input in, test.notes.Note entry) {
            entry.phase = in.phase(); entry.t = in.t(); entry.r = in.r(); entry.i = in.i();
            entry.booked = in.booked(); entry.bookings = in.bookings();
            return entry;
          }
        }
        """);
  }

  private static void write(Path directory, String file, String text) throws IOException {
    Path path = directory.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
