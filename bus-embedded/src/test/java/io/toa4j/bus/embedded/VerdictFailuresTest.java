package io.toa4j.bus.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts recorded while the record of one batch throws an {@code Error}, on a real bus file: the
 * verdicts left to the thread writing are recorded all the same, and the failed batch's messages
 * come again.
 */
class VerdictFailuresTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final String QUEUE = "test.sources.created..test.sinks";
  static final String LABEL = "test.sources.created";

  @TempDir Path directory;
  final TestClock clock = new TestClock();
  private Database db;

  @AfterEach
  void close() {
    if (db != null) db.close();
  }

  @Test
  void aBatchThatThrowsAnError_leavesTheVerdictsWaitingBehindIt_recorded_andItsMessageComesAgain()
      throws Exception {
    db = Database.open(directory.resolve(EmbeddedBus.FILE), Duration.ofSeconds(5));
    MessageTable table = new MessageTable(db);
    table.declare(QUEUE, Set.of(LABEL), clock.millis());
    table.publish(Fixtures.message("m-1", LABEL), clock.millis());
    table.publish(Fixtures.message("m-2", LABEL), clock.millis());
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch queued = new CountDownLatch(1);
    AtomicBoolean failed = new AtomicBoolean();
    Deliveries deliveries =
        new Deliveries(
            table,
            clock,
            (handled, postponed, parked) -> {
              if (failed.compareAndSet(false, true)) { // the first batch: m-1's verdict alone
                writing.countDown();
                Fixtures.awaitQuietly(queued);
                throw new StackOverflowError("recording the verdicts");
              }
              table.settle(handled, postponed, parked);
            });
    List<Claim> claims = deliveries.claim(QUEUE, 2, true);
    assertThat(claims).extracting(c -> c.delivery().message().id()).containsExactly("m-1", "m-2");

    CompletableFuture<Void> first =
        CompletableFuture.runAsync(() -> deliveries.settle(claims.get(0), Verdict.DONE));
    Fixtures.awaitQuietly(writing);
    deliveries.settle(claims.get(1), Verdict.DONE); // left to the thread writing
    queued.countDown();

    assertThat(first)
        .failsWithin(PATIENCE)
        .withThrowableThat()
        .havingCause()
        .isInstanceOf(StackOverflowError.class);
    await().atMost(PATIENCE).until(() -> deliveries.done() == 2);
    assertThat(Fixtures.rows(directory, QUEUE))
        .as("m-2 recorded as handled, m-1 still in its queue")
        .isEqualTo(1);
    assertThat(deliveries.claim(QUEUE, 2, true))
        .extracting(c -> c.delivery().message().id())
        .containsExactly("m-1");
  }
}
