package io.toa4j.tck.engine;

import static io.toa4j.tck.engine.SourcesAndSinks.emit;
import static io.toa4j.tck.engine.SourcesAndSinks.received;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Message;
import io.toa4j.spi.UnreachableException;
import io.toa4j.tck.bus.InterceptedBus;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;

/**
 * The publisher publishes together the entries committed while it was publishing ({@link
 * io.toa4j.spi.Bus#publish(List)}), in commit order; an entry whose event the bus refuses holds up
 * none of the others; a publish that stops midway (the bus cut after some of its events) is
 * published again whole by a sweep, and each event is handled once. On the real bus, every publish
 * passing through the test ({@link InterceptedBus}). An engine's test extends this and names the
 * engines with {@link #engines()}.
 */
public abstract class PublishingTogetherContract {
  static final Duration PATIENCE = Duration.ofSeconds(30);

  /**
   * How long the process that commits an entry keeps it to itself, publishing it at once; a sweep
   * takes it after (docs/outbox.md).
   */
  static final Duration CLAIM = Duration.ofSeconds(7);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The clock the context runs on, moved by the tests. */
  protected final TestClock clock = new TestClock();

  /** The engines under test; the test's interceptor wraps their bus. */
  protected abstract Engines engines();

  /** The sources and sinks on the engines under test, every publish through {@code bus}. */
  private Toa app(Path context, InterceptedBus bus) {
    return engines().builder(context, Options.defaults().withClock(clock), bus).build();
  }

  /**
   * Each publish's events, by the number of the source each announces; the first held until
   * released.
   */
  static final class Publishes {
    final List<List<Integer>> seen = new CopyOnWriteArrayList<>();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    void hold(List<Message> events) throws InterruptedException {
      seen.add(events.stream().map(Publishes::source).toList());
      if (seen.size() == 1) {
        first.countDown();
        if (!release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          throw new IllegalStateException("the test never released the publish");
      }
    }

    /** The number of the source whose creation the event announces. */
    static int source(Message event) {
      return Integer.parseInt(JSON.readTree(event.body().text()).path("id").asString(), 16);
    }
  }

  @Test
  void entriesCommittedWhileOneIsPublished_goTogether_andOneTheBusRefuses_holdsUpNoneOfThem()
      throws Exception {
    Publishes publishes = new Publishes();
    AtomicBoolean refusing = new AtomicBoolean(true);
    InterceptedBus bus =
        new InterceptedBus(
            "refusing-one",
            engines().bus(),
            (events, proceed) -> {
              publishes.hold(events);
              if (refusing.get()
                  && events.stream().anyMatch(event -> Publishes.source(event) == 4)) {
                throw new IllegalStateException("the broker refuses the event of source 4");
              }
              proceed.accept(events);
            });
    try (Toa app = app(Contexts.sourceAndSink(directory), bus)) {
      app.call("test.sources.emit", emit(1));
      assertThat(publishes.first.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .as("the first entry is being published")
          .isTrue();
      for (int n = 2; n <= 6; n++) app.call("test.sources.emit", emit(n));
      publishes.release.countDown();

      await()
          .atMost(PATIENCE)
          .until(() -> received(app, 6).equals(List.of(1L, 1L, 1L, 0L, 1L, 1L)));
      assertThat(publishes.seen)
          .as(
              "the five committed meanwhile together, in commit order; then each alone, as together failed")
          .containsExactly(
              List.of(1),
              List.of(2, 3, 4, 5, 6),
              List.of(2),
              List.of(3),
              List.of(4),
              List.of(5),
              List.of(6));
      await().atMost(PATIENCE).until(() -> app.admin().backlog() == 1);

      refusing.set(false);
      clock.advance(CLAIM.plusSeconds(1)); // the committer's claim on it ended: a sweep takes it
      await()
          .atMost(PATIENCE)
          .until(() -> received(app, 6).equals(List.of(1L, 1L, 1L, 1L, 1L, 1L)));
      await().atMost(PATIENCE).until(() -> app.admin().backlog() == 0);
    }
  }

  @Test
  void aPublishCutMidway_isPublishedWholeAgain_andEachEventIsHandledOnce() throws Exception {
    Publishes publishes = new Publishes();
    AtomicBoolean cut = new AtomicBoolean(true);
    InterceptedBus bus =
        new InterceptedBus(
            "cut-midway",
            engines().bus(),
            (events, proceed) -> {
              publishes.hold(events);
              if (events.size() > 1 && cut.getAndSet(false)) {
                proceed.accept(events.subList(0, events.size() / 2));
                throw new UnreachableException(
                    "the broker went away after "
                        + events.size() / 2
                        + " of "
                        + events.size()
                        + " events");
              }
              proceed.accept(events);
            });
    try (Toa app = app(Contexts.sourceAndSink(directory), bus)) {
      app.call("test.sources.emit", emit(1));
      assertThat(publishes.first.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      for (int n = 2; n <= 7; n++) app.call("test.sources.emit", emit(n));
      publishes.release.countDown();

      // the clock stands still, so the committer's claims never end: the sweep takes the six only
      // because the publish that failed for an unreachable broker gave them back
      await().atMost(PATIENCE).until(() -> app.admin().backlog() == 0);
      await()
          .atMost(PATIENCE)
          .until(() -> received(app, 7).equals(List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L)));
      assertThat(publishes.seen)
          .as("the cut publish, then the sweep's, whole")
          .contains(List.of(2, 3, 4, 5, 6, 7), atIndex(1));
      assertThat(
              publishes.seen.subList(2, publishes.seen.size()).stream()
                  .flatMap(List::stream)
                  .sorted()
                  .toList())
          .as("the sweep published the six again, those that went before the cut included")
          .containsExactly(2, 3, 4, 5, 6, 7);
      assertThat(received(app, 7))
          .as("each handled once, though three were delivered twice")
          .containsOnly(1L);
    }
  }

  private static org.assertj.core.data.Index atIndex(int index) {
    return org.assertj.core.data.Index.atIndex(index);
  }
}
