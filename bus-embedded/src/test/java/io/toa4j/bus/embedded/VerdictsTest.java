package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts recorded together: the handlers that finish while one transaction of verdicts is being
 * written hand theirs over and leave, and the next transaction records them all, each by its kind.
 * The file's write lock is held from another connection, as another process would hold it, to place
 * every handler's verdict behind one that cannot be written yet.
 */
class VerdictsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int MESSAGES =
      16; // the default room of one subscription: all handled at once

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void verdicts_handlersFinishingWhileOneIsWritten_areRecordedTogetherEachByItsKind()
      throws Exception {
    CountDownLatch allIn = new CountDownLatch(MESSAGES);
    CountDownLatch go = new CountDownLatch(1);
    try (EmbeddedBus bus = (EmbeddedBus) Fixtures.open(dir, clock)) {
      for (int i = 0; i < MESSAGES; i++) bus.send("q", message("m" + i, "x.y.op"));
      Recorder handler =
          new Recorder(
              d -> {
                if (d.attempt() == 1) {
                  allIn.countDown();
                  awaitQuietly(go);
                }
                int n = Integer.parseInt(d.message().id().substring(1));
                if (d.attempt() == 1 && n % 4 == 1) return new Verdict.Retry(Duration.ofMinutes(1));
                if (n % 4 == 2)
                  return new Verdict.Park("unreadable", "message " + n + " cannot be read");
                return Verdict.DONE;
              });
      bus.consume("q", handler);
      assertThat(allIn.await(WAIT.toSeconds(), TimeUnit.SECONDS))
          .as("every message handled at once")
          .isTrue();
      try (Connection other = lockFile()) {
        go.countDown();
        await().atMost(WAIT).until(() -> bus.verdictsHanded() == MESSAGES);
        assertThat(bus.verdictTransactions())
            .as("nothing written while another holds the file")
            .isZero();
        other.createStatement().execute("ROLLBACK");
      }
      await().atMost(WAIT).until(() -> bus.verdictsDone() == MESSAGES);
      // the writer took its own verdict, or a few, before the file was free; the rest waited
      // together
      assertThat(bus.verdictTransactions()).isBetween(1L, 2L);
      assertThat(bus.depth("q"))
          .as("the retried ones wait; done and parked ones are gone from the queue")
          .isEqualTo(4);
      assertThat(bus.parked()).extracting(Parked::code).hasSize(4).containsOnly("unreadable");
      assertThat(bus.parked())
          .extracting(p -> p.message().id())
          .containsExactlyInAnyOrder("m2", "m6", "m10", "m14");
      for (String retried : new String[] {"m1", "m5", "m9", "m13"}) {
        assertThat(Fixtures.column(dir, "q", retried, "not_before"))
            .isEqualTo(Fixtures.START + 60_000);
      }

      clock.advance(Duration.ofMinutes(1));
      await().atMost(WAIT).until(() -> bus.depth("q") == 0);
      assertThat(handler.deliveries())
          .filteredOn(d -> d.attempt() == 2)
          .extracting(d -> d.message().id())
          .containsExactlyInAnyOrder("m1", "m5", "m9", "m13");
      assertThat(handler.count()).isEqualTo(MESSAGES + 4);
    }
  }

  @Test
  void verdicts_transactionThatCannotBeWritten_leavesEachMessageToComeAgain() throws Exception {
    CountDownLatch allIn = new CountDownLatch(5);
    CountDownLatch go = new CountDownLatch(1);
    try (EmbeddedBus bus =
        (EmbeddedBus) Fixtures.open(dir, clock, Map.of(Tuning.BUSY_TIMEOUT, "200"))) {
      for (int i = 0; i < 5; i++) bus.send("q", message("m" + i, "x.y.op"));
      Recorder handler =
          new Recorder(
              d -> {
                if (d.attempt() == 1) {
                  allIn.countDown();
                  awaitQuietly(go);
                }
                return Verdict.DONE;
              });
      bus.consume("q", handler);
      assertThat(allIn.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      try (Connection other = lockFile()) {
        go.countDown();
        // each transaction of verdicts gives up after the busy timeout, and lets its messages go
        await().atMost(WAIT).until(() -> bus.verdictsDone() == 5);
        assertThat(bus.verdictTransactions()).isZero();
        for (int i = 0; i < 5; i++) {
          assertThat(Fixtures.column(dir, "q", "m" + i, "attempts"))
              .as("m" + i + " still there, its attempt counted")
              .isEqualTo(1);
        }
        other.createStatement().execute("ROLLBACK");
      }
      await().atMost(WAIT).until(() -> bus.depth("q") == 0);
      assertThat(handler.deliveries())
          .filteredOn(d -> d.attempt() == 2)
          .extracting(d -> d.message().id())
          .containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4");
      assertThat(handler.count()).isEqualTo(10);
    }
  }

  /** Another connection holding the file's write lock until it rolls back. */
  private Connection lockFile() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedBus.FILE));
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
    }
    return c;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
