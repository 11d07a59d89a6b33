package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a held call waits ({@link Admission}), on its own: a real embedded bus (whose queue nobody
 * consumes, so only the entries waiting to be published count) and a count of entries the test
 * sets, looked at through a function that counts the looks.
 */
class AdmissionTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final Duration HELD = Duration.ofMillis(500);
  static final String SOURCE = "test.sources";

  @TempDir Path directory;
  final TestClock clock = new TestClock();
  final AtomicLong unpublished = new AtomicLong();
  final AtomicLong looks = new AtomicLong();
  private Bus bus;

  @AfterEach
  void close() {
    if (bus != null) bus.close();
  }

  @Test
  void aHeldCall_looksAtItsLineAboutOncePerSample_notEveryFewMilliseconds() throws Exception {
    Progress progress = new Progress();
    CompletableFuture<Void> held = held(admission(progress, PATIENCE));

    long before = looks.get();
    long started = System.nanoTime();
    await().during(HELD).atMost(PATIENCE).until(() -> !held.isDone());
    long looked = looks.get() - before;
    long periods =
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / Admission.SAMPLE_MILLIS;

    // per sample period: the held call's look, which asks the bus, and the answer's; one more at
    // each side
    assertThat(looked)
        .as("looks at the line in %s periods", periods)
        .isLessThanOrEqualTo(2 * periods + 4);
    unpublished.set(0);
    progress.signal();
    held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void aHeldCall_goesOnWhenProgressShortensItsLine() throws Exception {
    Progress progress = new Progress();
    CompletableFuture<Void> held = held(admission(progress, PATIENCE));

    unpublished.set(3); // the bound: no longer over it
    progress.signal();

    held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(held).isCompleted();
  }

  @Test
  void anInterruptedHeldCall_goesOnAtOnce_andKeepsTheInterrupt() throws Exception {
    Admission admission = admission(new Progress(), PATIENCE);
    unpublished.set(10);
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              admission.enter(SOURCE);
              interrupted.complete(Thread.currentThread().isInterrupted());
            });
    caller.start();
    await()
        .atMost(PATIENCE)
        .until(() -> looks.get() > 0 && caller.getState() == Thread.State.TIMED_WAITING);

    caller.interrupt();

    // the longest wait is 30 s: an interrupt that did not end it would keep the caller that long
    assertThat(interrupted.get(10, TimeUnit.SECONDS)).as("the interrupt is kept").isTrue();
  }

  @Test
  void anAskWhoseThreadCannotStart_failsNoCall_andTheNextCallAsksAgain() {
    AtomicLong asks = new AtomicLong();
    bus =
        new InterceptedBus(
                "counted-embedded", "embedded", (events, proceed) -> proceed.accept(events))
            .backlogs(
                queue -> {
                  asks.incrementAndGet();
                  return OptionalLong.of(0);
                })
            .open(new BusSettings(directory.resolve(".toa"), Map.of(), clock));
    AtomicLong refusals = new AtomicLong(1);
    Executor startingNoThreadOnce =
        task -> {
          if (refusals.getAndDecrement() > 0)
            throw new InternalError(
                "unable to create native thread"); // an OutOfMemoryError would stop the test run
          // itself
          new Thread(task).start();
        };
    Admission admission =
        new Admission(
            bus,
            List.of(reception()),
            component -> 0,
            3,
            PATIENCE,
            clock,
            new SimpleMeterRegistry(),
            startingNoThreadOnce);

    admission.enter(SOURCE); // its ask cannot start: it goes on
    clock.advance(Duration.ofMillis(Admission.SAMPLE_MILLIS));
    admission.enter(SOURCE);

    await().atMost(PATIENCE).until(() -> asks.get() == 1);
  }

  /**
   * A call entering while 10 entries wait to be published, over the bound of 3: held once it
   * looked.
   */
  private CompletableFuture<Void> held(Admission admission) {
    unpublished.set(10);
    CompletableFuture<Void> held = CompletableFuture.runAsync(() -> admission.enter(SOURCE));
    await().atMost(PATIENCE).until(() -> looks.get() > 0);
    assertThat(held).isNotDone();
    return held;
  }

  private Admission admission(Progress progress, Duration wait) {
    bus = embedded();
    Admission admission =
        new Admission(
            bus,
            List.of(reception()),
            component -> {
              looks.incrementAndGet();
              return unpublished.get();
            },
            3,
            wait,
            clock,
            new SimpleMeterRegistry(),
            Admission.ASKING);
    progress.listen(admission::progressed);
    return admission;
  }

  /** The sinks' receiver of the sources' events: its queue is the sources' line. */
  private static Reception reception() {
    return new Reception(
        "test.sources.created..test.sinks",
        "test.sources.created",
        "test.sinks",
        "absorb",
        Optional.empty(),
        Optional.empty());
  }

  private Bus embedded() {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("embedded"))
        return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), clock));
    }
    throw new AssertionError("no embedded bus");
  }
}
