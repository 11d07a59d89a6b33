package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Verdict;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backpressure at the edge ({@link Admission}): a call from outside the context that would write
 * waits while more than the backlog bound of its component's events are on their way to a receiver
 * that consumes them, and goes on once they are handled, or once the longest wait is over; a call
 * that only reads never waits. The receiver held by the test, on a real bus, with the same tests on
 * every pair of engines ({@link BackpressureTest}, {@link BackpressureDistributedTest}).
 */
abstract class BackpressureContract {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final Duration QUIET = Duration.ofMillis(500);
  static final String QUEUE = "test.sources.created..test.sinks";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  /** The sources and sinks on the engines under test, with this bus and these options. */
  abstract Toa app(Path context, InterceptedBus bus, Options options);

  /** The name of the real bus under the interceptor. */
  abstract String real();

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
      clock.advance(
          Duration.ofMillis(Admission.SAMPLE_MILLIS)); // the queue's length is asked again
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
      clock.advance(Duration.ofMillis(Admission.SAMPLE_MILLIS));
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
      clock.advance(Duration.ofMillis(Admission.SAMPLE_MILLIS));

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
        clock.advance(Duration.ofMillis(Admission.SAMPLE_MILLIS));
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
        "held-" + real(), real(), (events, proceed) -> proceed.accept(events), holding);
  }

  private static long depth(Toa app) {
    return depth(app, QUEUE);
  }

  static long depth(Toa app, String queue) {
    return app.admin().queues().get(queue).depth();
  }

  static long waits(Toa app) {
    Counter waits = app.metrics().find(Admission.WAITS).counter();
    return waits == null ? 0 : (long) waits.count();
  }

  static String hex(int n) {
    return String.format("%032x", n);
  }

  private static Request emit(int n) {
    return Request.of(hex(n), Map.of("failures", 0, "refuse", false));
  }

  /** How many events each sink took, from 1 to n. */
  private static List<Long> received(Toa app, int n) {
    return IntStream.rangeClosed(1, n)
        .mapToObj(i -> app.call("test.sinks.observe", Request.id(hex(i))))
        .map(
            reply ->
                reply instanceof Reply.Output output
                        && output.value().orElse(Map.of()) instanceof Map<?, ?> sink
                        && sink.get("received") instanceof Number received
                    ? received.longValue()
                    : 0L) // a sink never written took none
        .toList();
  }
}
