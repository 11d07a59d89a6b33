package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tasks, and messages delivered out of order and twice, on the embedded engine. */
class TaskTest {
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final String A = ReceiverTest.A;

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa boot() {
    return Toa.builder()
        .directory(Contexts.sourceAndSink(directory))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static Request schedule(int failures) {
    return Request.input(Map.of("id", A, "failures", failures, "refuse", false));
  }

  @Test
  void task_answersOnceEnqueued_andRunsWithNobodyWaiting() {
    try (Toa app = boot()) {
      Reply reply = app.call("test.sources.schedule", schedule(0));

      assertThat(reply).isEqualTo(new Reply.Output(java.util.Optional.empty()));
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(Shop.output(app.call("test.sinks.observe", Request.id(A))))
          .containsEntry("received", 1L);
    }
  }

  @Test
  void task_failing_isRetriedThenParked_likeAnEvent() {
    try (Toa app = boot()) {
      app.call("test.sources.schedule", schedule(99));

      int retries = 0;
      for (long delay : List.of(1L, 10L, 30L, 90L)) {
        int expected = ++retries;
        await().atMost(SETTLE).until(() -> retried(app) == expected);
        clock.advance(Duration.ofSeconds(delay));
      }
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
      assertThat(app.admin().parked().get(0).queue()).isEqualTo("test.sinks..tasks");
      assertThat(app.admin().parked().get(0).attempts()).isEqualTo(5);
    }
  }

  @Test
  void task_toAnUnknownOperation_failsAtTheCallSite() {
    Path context = Contexts.sourceAndSink(directory);
    Contexts.edit(
        context,
        "components/test.sources/operations/Schedule.java",
        ".task(\"absorb\"",
        ".task(\"absorbs\"");
    try (Toa app =
        Toa.builder().directory(context).options(Options.defaults().withClock(clock)).build()) {
      assertThatThrownBy(() -> app.call("test.sources.schedule", schedule(0)))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
          .hasMessageContaining("no operation 'absorbs'");
      assertThat(app.admin().settle(SETTLE)).isEmpty();
    }
  }

  @Test
  void events_deliveredOutOfOrderAndTwice_areEachHandledOnce() {
    try (Toa app = boot();
        Bus second = openSecondBus()) {
      List<String> order = List.of("m3", "m1", "m2", "m1", "m3");
      for (String id : order) {
        second.publish(
            new Message(
                id,
                "test.sources.created",
                Binding.json(Binding.tree(Map.of("id", A, "failures", 0, "refuse", false))),
                Map.of("version", "1")));
        assertThat(app.admin().settle(SETTLE))
            .isEmpty(); // each copy is handled before the next arrives
      }

      Map<String, Object> sink = Shop.output(app.call("test.sinks.observe", Request.id(A)));
      assertThat(sink).containsEntry("received", 3L).containsEntry("VERSION", 3L);
    }
  }

  private static double retried(Toa app) {
    return app.metrics().find("toa.messages").tag("outcome", "retried").counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private Bus openSecondBus() {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("embedded"))
        return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), clock));
    }
    throw new AssertionError("no embedded bus");
  }
}
