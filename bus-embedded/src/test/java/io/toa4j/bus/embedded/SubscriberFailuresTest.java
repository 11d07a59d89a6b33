package io.toa4j.bus.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscriber whose handler threads cannot start (an {@code Error}, as the {@code
 * OutOfMemoryError} of a thread that cannot start; an {@code InternalError} here, since an {@code
 * OutOfMemoryError} stops the test run itself) gives back what it took and keeps consuming, on a
 * real bus file.
 */
class SubscriberFailuresTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final String QUEUE = "test.sources.created..test.sinks";

  @TempDir Path directory;
  final TestClock clock = new TestClock();
  private final ExecutorService threads = HandlerThreads.create();
  private Database db;
  private Subscriber subscriber;

  @AfterEach
  void close() {
    if (subscriber != null) subscriber.close();
    if (db != null) db.close();
    threads.shutdownNow();
  }

  @Test
  void
      aHandlerThreadThatCannotStart_givesBackTheRoomAndTheClaim_andTheMessageIsHandledAtTheNextPoll() {
    Deliveries deliveries = deliveries();
    AtomicInteger refusals = new AtomicInteger(2); // more than one: the poller survives the first
    Executor failingTwice =
        task -> {
          if (refusals.getAndDecrement() > 0)
            throw new InternalError(
                "unable to create native thread"); // an OutOfMemoryError would stop the test run
          // itself
          threads.execute(task);
        };
    Recorder recorder = new Recorder();
    // one message in flight at a time: a room lost to the failure would stop the consumer
    Tuning tuning =
        new Tuning(
            Duration.ofMillis(20),
            1,
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofMillis(100));
    subscriber = new Subscriber(QUEUE, recorder, deliveries, failingTwice, tuning, s -> {});

    subscriber.start();

    await().atMost(PATIENCE).until(() -> recorder.deliveries().size() == 1);
    assertThat(refusals.get()).as("both refusals were met").isNegative();
    assertThat(recorder.deliveries().get(0).message().id()).isEqualTo("m-1");
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                deliveries.done() == 1); // its verdict recorded: the room and claim were given back
  }

  /** The deliveries of a real bus file holding one message, m-1, in the queue. */
  private Deliveries deliveries() {
    db = Database.open(directory.resolve(EmbeddedBus.FILE), Duration.ofSeconds(5));
    MessageTable table = new MessageTable(db);
    table.declare(QUEUE, Set.of("test.sources.created"), clock.millis());
    table.publish(Fixtures.message("m-1", "test.sources.created"), clock.millis());
    return new Deliveries(table, clock);
  }
}
