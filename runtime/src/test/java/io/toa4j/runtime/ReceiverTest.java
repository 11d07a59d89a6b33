package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.spi.Parked;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries that wait for their delays, by a test clock, on the embedded engine: a source component
 * announces every write, a sink component receives them and fails as each event's payload says; and
 * a receiver of an event nobody announces. The rest of receivers is the engine kit's {@code
 * ReceiversContract}, on every pair of engines.
 */
class ReceiverTest {
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final String A = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa boot() {
    return Toa.builder()
        .directory(Contexts.sourceAndSink(directory))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static Request emit(int failures, boolean refuse) {
    return Request.of(A, Map.of("failures", failures, "refuse", refuse));
  }

  private static Map<String, Object> sink(Toa app) {
    return Shop.output(app.call("test.sinks.observe", Request.id(A)));
  }

  private static double counted(Toa app, String outcome) {
    return app.metrics().find("toa.messages").tag("outcome", outcome).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void receiver_throwingTwice_isRetriedAfterItsDelaysAndSucceeds() {
    try (Toa app = boot()) {
      app.call("test.sources.emit", emit(2, false));

      await().atMost(SETTLE).until(() -> counted(app, "retried") == 1);
      await().atMost(SETTLE).until(() -> failuresNoted(app).equals(List.of(1)));
      clock.advance(Duration.ofSeconds(1));
      await().atMost(SETTLE).until(() -> counted(app, "retried") == 2);
      await().atMost(SETTLE).until(() -> failuresNoted(app).equals(List.of(1, 2)));
      assertThat(sink(app)).containsEntry("VERSION", 0L);
      clock.advance(Duration.ofSeconds(10));

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sink(app)).containsEntry("received", 1L);
      assertThat(app.admin().parked()).isEmpty();
      assertThat(systemMessages(app))
          .as("the failures noted of a delivery that went through, never parked, are forgotten")
          .isEmpty();
    }
  }

  /** The records of {@code system.messages}, as the runtime keeps them. */
  private static List<tools.jackson.databind.JsonNode> systemMessages(Toa app) {
    return app.storage().store(SystemMessages.LABEL).page(1000, 0).stream()
        .<tools.jackson.databind.JsonNode>map(r -> Binding.object(r.state()))
        .toList();
  }

  /** The attempts noted as failed in the one record of {@code system.messages}, if there is one. */
  private static List<Integer> failuresNoted(Toa app) {
    return systemMessages(app).stream()
        .flatMap(
            r -> java.util.stream.StreamSupport.stream(r.path("failures").spliterator(), false))
        .map(f -> f.path("attempt").asInt())
        .toList();
  }

  @Test
  void receiver_alwaysThrowing_isParkedAfterFiveAttempts_andReplayRunsItAgain() {
    try (Toa app = boot()) {
      app.call("test.sources.emit", emit(5, false));

      for (long delay : List.of(1L, 10L, 30L, 90L)) {
        double retried = counted(app, "retried");
        await().atMost(SETTLE).until(() -> counted(app, "retried") == retried + 1);
        clock.advance(Duration.ofSeconds(delay));
      }
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);

      Parked parked = app.admin().parked().get(0);
      assertThat(parked.attempts()).isEqualTo(5);
      assertThat(parked.code()).isEqualTo("SYSTEM");
      assertThat(parked.reason())
          .isEqualTo("test.sinks.absorb threw java.lang.IllegalStateException: failure 5 of 5");
      assertThat(parked.queue()).isEqualTo("test.sources.created..test.sinks");
      assertThat(sink(app)).containsEntry("VERSION", 0L);
      ParkedHistory history = app.admin().history(parked).orElseThrow();
      assertThat(history.failures())
          .extracting(ParkedHistory.Failed::attempt, ParkedHistory.Failed::code)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(1, "SYSTEM"),
              org.assertj.core.groups.Tuple.tuple(2, "SYSTEM"),
              org.assertj.core.groups.Tuple.tuple(3, "SYSTEM"),
              org.assertj.core.groups.Tuple.tuple(4, "SYSTEM"),
              org.assertj.core.groups.Tuple.tuple(5, "SYSTEM"));
      assertThat(history.failures().get(2).reason())
          .isEqualTo("test.sinks.absorb threw java.lang.IllegalStateException: failure 3 of 5");
      assertThat(history.failures().get(4).at()).isEqualTo(clock.instant());
      assertThat(history.trace())
          .hasValueSatisfying(
              trace ->
                  assertThat(trace)
                      .contains("java.lang.IllegalStateException", "\tat ")
                      .as("classes and frames only, never a message")
                      .doesNotContain("failure 5 of 5"));
      assertThat(history.actions()).isEmpty();

      assertThat(app.admin().replay(parked.id(), "night shift")).isTrue();
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sink(app)).containsEntry("received", 1L);
      assertThat(app.admin().parked()).isEmpty();
      assertThat(app.admin().history(parked).orElseThrow().actions())
          .singleElement()
          .satisfies(
              action -> {
                assertThat(action.action()).isEqualTo("replayed");
                assertThat(action.by()).isEqualTo("night shift");
                assertThat(action.at()).isEqualTo(clock.instant());
                assertThat(action.reason()).isEmpty();
              });
    }
  }

  @Test
  void parked_survivesARestart() {
    try (Toa app = boot()) {
      app.call("test.sources.emit", emit(99, false));
      for (long delay : List.of(1L, 10L, 30L, 90L)) {
        double retried = counted(app, "retried");
        await().atMost(SETTLE).until(() -> counted(app, "retried") == retried + 1);
        clock.advance(Duration.ofSeconds(delay));
      }
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
    }
    try (Toa app = boot()) {
      assertThat(app.admin().parked()).hasSize(1).first().extracting(Parked::attempts).isEqualTo(5);
    }
  }

  @Test
  void receiver_namingAnUnknownEvent_refusesToBoot() {
    Path context = Contexts.sourceAndSink(directory);
    Contexts.edit(
        context,
        "components/test.sinks/manifest.toa.yaml",
        "test.sources.created: absorb",
        "test.sources.vanished: absorb");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("announces test.sources.vanished")
        .hasMessageContaining("created, updated");
  }
}
