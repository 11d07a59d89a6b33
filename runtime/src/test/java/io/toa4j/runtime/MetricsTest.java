package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timers and gauges an operator reads, on the embedded engine: calls by operation and outcome,
 * commits, the lag of deliveries from their commit, and the outbox backlog and parked messages,
 * sampled at most once per period whatever the scrapes.
 */
class MetricsTest {
  static final Duration SETTLE = ReceiverTest.SETTLE;
  static final String A = ReceiverTest.A;
  static final String B = "fedcba9876543210fedcba9876543210";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa boot(Path context) {
    return Toa.builder()
        .directory(context)
        .state(directory.resolve("state"))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static Request absorb(String id, int failures, boolean refuse) {
    return Request.of(io.toa4j.api.Query.id(id), Map.of("failures", failures, "refuse", refuse));
  }

  private static long calls(MeterRegistry metrics, String operation, String outcome) {
    Timer timer =
        metrics.find(Engine.CALL_TIMER).tag("operation", operation).tag("outcome", outcome).timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void calls_areTimedByOperationAndOutcome_output_refused_failed() {
    try (Toa app = boot(Contexts.sourceAndSink(directory.resolve("context")))) {
      app.call("test.sinks.absorb", absorb(A, 0, false));
      Reply refused = app.call("test.sinks.absorb", absorb(B, 0, true));
      assertThatThrownBy(
              () ->
                  app.call(
                      "test.sinks.absorb", absorb("00000000000000000000000000000001", 1, false)))
          .isInstanceOf(Failure.class);

      assertThat(refused).isInstanceOf(Reply.Refused.class);
      MeterRegistry metrics = app.metrics();
      assertThat(calls(metrics, "test.sinks.absorb", "output")).isEqualTo(1);
      assertThat(calls(metrics, "test.sinks.absorb", "refused")).isEqualTo(1);
      assertThat(calls(metrics, "test.sinks.absorb", "failed")).isEqualTo(1);
      assertThat(calls(metrics, "test.sinks.absorb", "replayed")).isZero();
      Timer commits =
          metrics
              .get(Engine.COMMIT_TIMER)
              .tag("component", "test.sinks")
              .tag("outcome", "committed")
              .timer();
      assertThat(commits.count()).as("only the output committed").isEqualTo(1);
      assertThat(commits.totalTime(TimeUnit.NANOSECONDS)).isPositive();
    }
  }

  @Test
  void aCallTheInboxAnswers_isTimedAsReplayed() {
    try (Toa app = boot(Shop.copyTo(directory.resolve("shop")))) {
      Request credit =
          Request.of(
              io.toa4j.api.Query.id(A), Map.of("amount", 100, "type", "goodwill", "ref", "a"));
      app.call("billing.wallets.credit", credit, "edge-1");
      app.call("billing.wallets.credit", credit, "edge-1");

      assertThat(calls(app.metrics(), "billing.wallets.credit", "output")).isEqualTo(1);
      assertThat(calls(app.metrics(), "billing.wallets.credit", "replayed")).isEqualTo(1);
    }
  }

  @Test
  void anEventsDelivery_recordsItsLagFromTheCommit_notFromItsLastAttempt() {
    try (Toa app = boot(Contexts.sourceAndSink(directory.resolve("context")))) {
      app.call(
          "test.sources.emit",
          Request.of(io.toa4j.api.Query.id(A), Map.of("failures", 1, "refuse", false)));
      await()
          .atMost(SETTLE)
          .until(
              () -> app.metrics().find("toa.messages").tag("outcome", "retried").counter() != null);
      clock.advance(Duration.ofSeconds(1)); // the first retry delay

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      Timer lag = app.metrics().get(Deliveries.LAG_TIMER).timer();
      assertThat(lag.getId().getTag("queue")).contains("test.sinks");
      assertThat(lag.count()).as("the handled delivery, not the failed attempt").isEqualTo(1);
      assertThat(lag.max(TimeUnit.MILLISECONDS))
          .as("measured from the commit, on the context's clock")
          .isGreaterThanOrEqualTo(1000);
    }
  }

  @Test
  void aTasksDelivery_recordsItsLag() {
    try (Toa app = boot(Contexts.sourceAndSink(directory.resolve("context")))) {
      app.call(
          "test.sources.schedule", Request.input(Map.of("id", A, "failures", 0, "refuse", false)));

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      Timer lag =
          app.metrics()
              .get(Deliveries.LAG_TIMER)
              .tag("queue", Messaging.tasks("test.sinks"))
              .timer();
      assertThat(lag.count()).isEqualTo(1);
    }
  }

  @Test
  void gauges_showTheOutboxBacklogPerComponent_andTheParkedMessages() {
    Path context = Contexts.sourceAndSink(directory.resolve("context"));
    Contexts.write(context, "context.toa.yaml", "name: test\ndelivery: { retries: [] }\n");
    pendingEntries(
        directory.resolve("state"),
        "test.sources",
        3,
        clock.millis() + Duration.ofDays(1).toMillis());

    try (Toa app = boot(context)) {
      app.call(
          "test.sinks.absorb", absorb(A, 0, false)); // commits; no one consumes the sinks' events
      app.call(
          "test.sources.emit",
          Request.of(io.toa4j.api.Query.id(B), Map.of("failures", 1, "refuse", false)));
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);

      MeterRegistry metrics = app.metrics();
      await()
          .atMost(SETTLE)
          .untilAsserted(
              () -> assertThat(metrics.get(Toa.PARKED_GAUGE).gauge().value()).isEqualTo(1));
      await()
          .atMost(SETTLE)
          .untilAsserted(
              () ->
                  assertThat(
                          metrics
                              .get(Toa.BACKLOG_GAUGE)
                              .tag("component", "test.sources")
                              .gauge()
                              .value())
                      .isEqualTo(3));
      assertThat(metrics.get(Toa.BACKLOG_GAUGE).tag("component", "test.sinks").gauge().value())
          .isZero();
    }
  }

  @Test
  void aScrape_asksTheStoreAtMostOncePerPeriod() {
    String label = UUID.randomUUID().toString();
    Path context = Contexts.sourceAndSink(directory.resolve("context"));
    Contexts.write(
        context,
        "context.toa.yaml",
        "name: test\nstorage: { engine: counting, options: { label: " + label + " } }\n");

    try (Toa app = boot(context)) {
      var backlog = app.metrics().get(Toa.BACKLOG_GAUGE).tag("component", "test.sources").gauge();
      long start = System.nanoTime();
      assertThat(backlog.value()).isZero();
      long asked = CountingStorageProvider.calls(label, "test.sources", "unpublishedCount");

      for (int i = 0; i < 50; i++) backlog.value();

      long after = CountingStorageProvider.calls(label, "test.sources", "unpublishedCount");
      if (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(Sampled.PERIOD_MILLIS)) {
        assertThat(after).as("50 scrapes within one period ask nothing more").isEqualTo(asked);
      } else {
        assertThat(after)
            .as("a slow machine: one period ended, so one more question")
            .isLessThanOrEqualTo(asked + 1);
      }
      assertThat(CountingStorageProvider.calls(label, "test.sources", "unpublished"))
          .as("no scrape reads the entries")
          .isZero();
    }
  }

  @Test
  void sampled_asksOncePerPeriod_andAnswersNaNForAFailedQuestionUntilTheNext() {
    AtomicLong now = new AtomicLong();
    AtomicLong asked = new AtomicLong();
    AtomicLong answer = new AtomicLong(7);
    Sampled sampled =
        new Sampled(
            "a count",
            () -> {
              asked.incrementAndGet();
              if (answer.get() < 0) throw new IllegalStateException("down");
              return answer.get();
            },
            100,
            now::get);

    assertThat(sampled.value()).isEqualTo(7);
    answer.set(8);
    now.set(99);
    assertThat(sampled.value()).as("within the period: the last value").isEqualTo(7);
    now.set(100);
    assertThat(sampled.value()).isEqualTo(8);
    answer.set(-1);
    now.set(200);
    assertThat(sampled.value()).isNaN();
    answer.set(9);
    now.set(250);
    assertThat(sampled.value()).as("a failure is not asked again within its period either").isNaN();
    now.set(300);
    assertThat(sampled.value()).isEqualTo(9);
    assertThat(asked).hasValue(4);
  }

  /** Commits {@code n} records with outbox entries another process claimed until {@code until}. */
  private static void pendingEntries(Path state, String component, int n, long until) {
    try (Storage storage = new SqliteStorageProvider().open(new StorageSettings(state, Map.of()))) {
      var store = storage.store(component);
      for (int i = 0; i < n; i++) {
        String id = String.format("%032x", i + 1);
        assertThat(
                store.commit(
                    new Write(
                        0,
                        new StoredRecord(id, 1, 1000, 1000, new Json("{}")),
                        Optional.of(
                            new OutboxEntry(
                                String.format("%032x", 100 + i), 1000, new Json("{}"), until)))))
            .isEqualTo(Outcome.COMMITTED);
      }
    }
  }
}
