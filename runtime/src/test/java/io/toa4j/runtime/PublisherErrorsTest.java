package io.toa4j.runtime;

import static io.toa4j.runtime.SourcesAndSinks.emit;
import static io.toa4j.runtime.SourcesAndSinks.received;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code Error} out of publishing or marking an outbox entry strands nothing: the entry leaves
 * the publisher's in-flight set, so a sweep publishes it again, and a sweep that meets an {@code
 * Error} leaves the next sweep to run. On the embedded engines, the Error thrown by the bus's
 * publish ({@link InterceptedBus}) or by the store's mark ({@link InterceptedStorage}).
 */
class PublisherErrorsTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final Duration PAST_THE_CLAIM = Duration.ofMillis(Publisher.CLAIM_MILLIS + 1000);

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  /**
   * A bounded wait that lets the Errors the test injects end the threads they are thrown on: the
   * publisher rethrows them there, once it has taken everything that waited.
   */
  private static ConditionFactory waiting(String alias) {
    return Awaitility.await(alias).atMost(PATIENCE).dontCatchUncaughtExceptions();
  }

  private static ConditionFactory waiting() {
    return waiting("");
  }

  @Test
  void
      anErrorOutOfThePublish_leavesTheEntryToTheSweep_andOneOutOfTheSweepsPublish_toTheNextSweep() {
    AtomicInteger publishes = new AtomicInteger();
    InterceptedBus bus =
        new InterceptedBus(
            "failing-twice",
            "embedded",
            (events, proceed) -> {
              if (publishes.incrementAndGet() <= 2)
                throw new AssertionError("publish " + publishes.get() + " fails with an Error");
              proceed.accept(events);
            });
    try (Toa app =
        Toa.builder()
            .directory(Contexts.sourceAndSink(directory))
            .engine(bus)
            .bus(bus.name(), Map.of())
            .options(Options.defaults().withClock(clock))
            .build()) {
      app.call("test.sources.emit", emit(1));
      waiting().until(() -> publishes.get() == 1);
      assertThat(app.admin().backlog()).as("the entry whose publish threw").isEqualTo(1);

      clock.advance(PAST_THE_CLAIM); // the committer's claim is over: the sweep takes the entry
      waiting("the sweep publishes the entry again (it is not left in flight)")
          .until(() -> publishes.get() == 2);

      clock.advance(PAST_THE_CLAIM); // the sweep's claim is over: the next sweep takes it
      waiting("a later sweep runs").until(() -> app.admin().backlog() == 0);
      waiting().until(() -> received(app, 1).equals(List.of(1L)));
    }
  }

  @Test
  void anErrorOutOfAMark_leavesTheEntryToTheSweep() {
    AtomicInteger marks = new AtomicInteger();
    InterceptedStorage storage =
        new InterceptedStorage(
            "failing-mark",
            (component, method, args, proceed) -> {
              if (component.equals("test.sources")
                  && method.getName().equals("published")
                  && marks.incrementAndGet() == 1) {
                throw new AssertionError("the first mark fails with an Error");
              }
              return proceed.call();
            });
    try (Toa app =
        Toa.builder()
            .directory(Contexts.sourceAndSink(directory))
            .engine(storage)
            .storage(storage.name(), Map.of())
            .options(Options.defaults().withClock(clock))
            .build()) {
      app.call("test.sources.emit", emit(1));
      waiting().until(() -> marks.get() == 1);
      waiting().until(() -> received(app, 1).equals(List.of(1L)));
      assertThat(app.admin().backlog()).as("the entry whose mark threw").isEqualTo(1);

      clock.advance(PAST_THE_CLAIM);
      waiting("the sweep publishes and marks the entry").until(() -> app.admin().backlog() == 0);
      assertThat(marks).hasValue(2);
      assertThat(received(app, 1)).as("handled once, though published twice").containsExactly(1L);
    }
  }
}
