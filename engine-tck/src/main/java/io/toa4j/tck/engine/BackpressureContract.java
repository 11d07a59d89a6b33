package io.toa4j.tck.engine;

import static io.toa4j.tck.engine.SourcesAndSinks.emit;
import static io.toa4j.tck.engine.SourcesAndSinks.hex;
import static io.toa4j.tck.engine.SourcesAndSinks.received;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backpressure at the edge: a call from outside the context that would write waits while more than
 * the backlog bound of its component's events are on their way to a receiver that consumes them,
 * and goes on once they are handled, or once the longest wait is over; a call that only reads never
 * waits; a component that only sends tasks waits for its tasks likewise. The receiver held by the
 * test, on the real bus ({@link InterceptedBus}). An engine's test extends this and names the
 * engines with {@link #engines()}.
 */
public abstract class BackpressureContract {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final Duration QUIET = Duration.ofMillis(500);
  static final String QUEUE = "test.sources.created..test.sinks";
  static final String NOTES = "test.notes..tasks";

  /**
   * How long the length of a queue the runtime asked the bus for stands: it asks again once this
   * has passed, in real time or on the context's clock (docs/backpressure.md).
   */
  static final Duration SAMPLED = Duration.ofMillis(20);

  /** The counter of calls that waited (docs/observability.md). */
  static final String WAITS = "toa.backlog.waits";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The clock the context runs on, moved by the tests. */
  protected final TestClock clock = new TestClock();

  /** The engines under test; the test's interceptor wraps their bus. */
  protected abstract Engines engines();

  /** The context on the engines under test, every delivery through {@code bus}. */
  private Toa app(Path context, InterceptedBus bus, Options options) {
    return engines().builder(context, options, bus).build();
  }

  @Test
  void aCallThatWrites_waitsWhileTheReceiversLag_andGoesOnOnceTheyCatchUp() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    // the longest wait beyond the test's patience: the fifth call goes on because the queue drained
    Options options = Options.defaults().withClock(clock).withBacklog(3, PATIENCE.multipliedBy(2));
    try (Toa app = app(Contexts.sourceAndSink(directory), gated(release), options)) {
      for (int n = 1; n <= 4; n++) app.call("test.sources.emit", emit(n));
      await()
          .atMost(PATIENCE)
          .until(() -> depth(app) == 4); // held by the receiver or waiting for it
      clock.advance(SAMPLED); // the queue's length is asked again
      // the fourth may have waited a moment: an event published and not yet confirmed counts twice
      long before = waits(app);

      CompletableFuture<Reply> fifth =
          CompletableFuture.supplyAsync(() -> app.call("test.sources.emit", emit(5)));
      await().atMost(PATIENCE).until(() -> waits(app) == before + 1);
      await().during(QUIET).atMost(PATIENCE).until(() -> !fifth.isDone());
      assertThat(app.call("test.sources.observe", Request.id(hex(1))))
          .as("a call that only reads does not wait")
          .isInstanceOf(Reply.Output.class);
      assertThat(waits(app)).isEqualTo(before + 1);

      release.countDown();
      await().atMost(PATIENCE).until(() -> depth(app) == 0);
      // the clock stands still: the queue is asked again as real time passes
      assertThat(fifth.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(Reply.Output.class);
      await().atMost(PATIENCE).until(() -> received(app, 5).equals(List.of(1L, 1L, 1L, 1L, 1L)));
    }
  }

  @Test
  void aCallWaitsNoLongerThanTheLongestWait_thenGoesOn() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Duration wait = Duration.ofMillis(300);
    try (Toa app =
        app(
            Contexts.sourceAndSink(directory),
            gated(release),
            Options.defaults().withClock(clock).withBacklog(1, wait))) {
      app.call("test.sources.emit", emit(1));
      app.call("test.sources.emit", emit(2));
      await().atMost(PATIENCE).until(() -> depth(app) == 2);
      clock.advance(SAMPLED);
      long before = waits(app); // the second may have waited a moment: see above

      long started = System.nanoTime();
      Reply third = app.call("test.sources.emit", emit(3));
      long waited = System.nanoTime() - started;

      assertThat(third).isInstanceOf(Reply.Output.class);
      assertThat(Duration.ofNanos(waited))
          .as("it waited, then went on")
          .isGreaterThanOrEqualTo(wait);
      assertThat(waits(app)).isEqualTo(before + 1);
      assertThat(received(app, 3)).as("the receiver still held").containsOnly(0L);
      release.countDown();
      await().atMost(PATIENCE).until(() -> received(app, 3).equals(List.of(1L, 1L, 1L)));
    }
  }

  @Test
  void withNoBacklogBound_noCallWaits() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Toa app =
        app(
            Contexts.sourceAndSink(directory),
            gated(release),
            Options.defaults().withClock(clock).withBacklog(0, PATIENCE))) {
      for (int n = 1; n <= 3; n++) app.call("test.sources.emit", emit(n));
      await().atMost(PATIENCE).until(() -> depth(app) == 3);
      clock.advance(SAMPLED);

      assertThat(app.call("test.sources.emit", emit(4))).isInstanceOf(Reply.Output.class);
      assertThat(waits(app)).isZero();
      release.countDown();
      await().atMost(PATIENCE).until(() -> received(app, 4).equals(List.of(1L, 1L, 1L, 1L)));
    }
  }

  @Test
  void aBusThatDoesNotAnswer_holdsNoCallBack() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    InterceptedBus bus =
        gated(release)
            .backlogs(
                queue -> {
                  try {
                    release.await(
                        PATIENCE.toSeconds(),
                        TimeUnit.SECONDS); // a broker cut off without a reset: no answer
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return OptionalLong.of(100);
                });
    // over the bound, had the bus answered; the three entries alone are not
    try (Toa app =
        app(
            Contexts.sourceAndSink(directory),
            bus,
            Options.defaults().withClock(clock).withBacklog(10, PATIENCE))) {
      for (int n = 1; n <= 3; n++) {
        int topup = n;
        CompletableFuture<Reply> call =
            CompletableFuture.supplyAsync(() -> app.call("test.sources.emit", emit(topup)));
        assertThat(call.get(10, TimeUnit.SECONDS))
            .as("call %d answered while the bus does not say how long its queue is", n)
            .isInstanceOf(Reply.Output.class);
        clock.advance(SAMPLED);
      }
      assertThat(waits(app)).isZero();
      release.countDown();
      await().atMost(PATIENCE).until(() -> received(app, 3).equals(List.of(1L, 1L, 1L)));
    }
  }

  /** The real bus, its receiver of the sources' events held until {@code release}. */
  InterceptedBus gated(CountDownLatch release) {
    return gated(release, QUEUE);
  }

  /** The real bus, its consumer of {@code held} held until {@code release}. */
  InterceptedBus gated(CountDownLatch release, String held) {
    BiFunction<String, Bus.Handler, Bus.Handler> holding =
        (queue, handler) ->
            !queue.equals(held)
                ? handler
                : delivery -> {
                  try {
                    if (!release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                      throw new IllegalStateException("the test never released the receiver");
                  } catch (InterruptedException e) {
                    Thread.currentThread()
                        .interrupt(); // the bus is closing: the message comes again
                    return new Verdict.Retry(Duration.ofSeconds(1));
                  }
                  return handler.handle(delivery);
                };
    return new InterceptedBus(
        "held-" + engines().bus(),
        engines().bus(),
        (events, proceed) -> proceed.accept(events),
        holding);
  }

  private static long depth(Toa app) {
    return depth(app, QUEUE);
  }

  static long depth(Toa app, String queue) {
    return app.admin().queues().get(queue).depth();
  }

  static long waits(Toa app) {
    Counter waits = app.metrics().find(WAITS).counter();
    return waits == null ? 0 : (long) waits.count();
  }

  @Test
  void aComponentThatOnlySendsTasks_waitsWhileItsTasksLag_andGoesOnOnceTheyAreHandled()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    // test.courier announces nothing anyone receives: its line is the task queue it sends to
    Options options = Options.defaults().withClock(clock).withBacklog(3, PATIENCE.multipliedBy(2));
    try (Toa app = app(Contexts.courier(directory), gated(release, NOTES), options)) {
      for (int n = 1; n <= 4; n++) app.call("test.courier.dispatch", dispatch(n));
      await()
          .atMost(PATIENCE)
          .until(() -> depth(app, NOTES) == 4); // held by the notes or waiting for them
      clock.advance(SAMPLED); // the queue's length is asked again
      long before =
          waits(app); // the fourth may have waited a moment: a task published and not yet marked
      // counts twice

      CompletableFuture<Reply> fifth =
          CompletableFuture.supplyAsync(() -> app.call("test.courier.dispatch", dispatch(5)));
      await().atMost(PATIENCE).until(() -> waits(app) == before + 1);
      await().during(QUIET).atMost(PATIENCE).until(() -> !fifth.isDone());

      release.countDown();
      assertThat(fifth.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(Reply.Output.class);
      await().atMost(PATIENCE).until(() -> notes(app) == 5);
    }
  }

  private static Request dispatch(int n) {
    return Request.of(hex(n), Map.of("mode", "ok", "note", "note " + n));
  }

  /** How many tasks the notes ran. */
  private static long notes(Toa app) {
    return app.call("test.notes.observe", Request.id("fedcba9876543210fedcba9876543210"))
                instanceof Reply.Output output
            && output.value().orElse(Map.of()) instanceof Map<?, ?> notes
            && notes.get("received") instanceof Number received
        ? received.longValue()
        : 0;
  }
}
