package io.toa4j.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/** Group commit on a real SQLite file in WAL mode, written by many threads at once. */
class GroupCommitTest {
  @TempDir Path directory;
  Connection writer;
  GroupCommit commits;

  @BeforeEach
  void open() throws SQLException {
    writer = connect();
    try (Statement s = writer.createStatement()) {
      s.execute("CREATE TABLE item (n INTEGER PRIMARY KEY)");
    }
    commits = new GroupCommit(writer, 64, () -> new IllegalStateException("closed for the test"));
  }

  @AfterEach
  void close() throws SQLException {
    commits.close();
    writer.close();
  }

  private Connection connect() throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(30_000);
    return config.createConnection("jdbc:sqlite:" + directory.resolve("items.db"));
  }

  private static Integer insert(Connection c, int n) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO item (n) VALUES (?)")) {
      s.setInt(1, n);
      return s.executeUpdate();
    }
  }

  /** What another connection sees: only committed rows. */
  private List<Integer> committed() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT n FROM item ORDER BY n")) {
      List<Integer> items = new ArrayList<>();
      while (r.next()) items.add(r.getInt(1));
      return items;
    }
  }

  /**
   * Threads write at once: every multiple of 3 is not kept, every multiple of 5 (not of 3) fails in
   * its own statements; every other write is committed, whichever batch it shared.
   */
  @Test
  void concurrentWrites_eachKeepsItsOwnOutcome() throws Exception {
    int writes = 600;
    ExecutorService threads = Executors.newFixedThreadPool(16);
    List<Future<Integer>> outcomes = new ArrayList<>();
    for (int i = 1; i <= writes; i++) {
      int n = i;
      outcomes.add(
          threads.submit(
              () ->
                  commits.write(
                      c -> {
                        insert(c, n);
                        if (n % 3 != 0 && n % 5 == 0)
                          insert(c, n); // the same key again: the statement fails
                        return n;
                      },
                      result -> result % 3 != 0)));
    }
    threads.shutdown();

    List<Integer> expected = new ArrayList<>();
    for (int i = 1; i <= writes; i++) {
      Future<Integer> outcome = outcomes.get(i - 1);
      if (i % 3 != 0 && i % 5 == 0) {
        int n = i;
        assertThatThrownBy(() -> outcome.get(1, TimeUnit.MINUTES))
            .as("write %d", n)
            .hasCauseInstanceOf(SQLException.class)
            .hasMessageContaining("UNIQUE");
      } else {
        assertThat(outcome.get(1, TimeUnit.MINUTES)).isEqualTo(i);
        if (i % 3 != 0) expected.add(i);
      }
    }
    assertThat(committed()).isEqualTo(expected);
  }

  @Test
  void write_alone_notKept_leavesNothing_andAnswersItsResult() throws Exception {
    Integer inserted = commits.write(c -> insert(c, 1), result -> false);

    assertThat(inserted).isEqualTo(1);

    assertThat(committed()).isEmpty();
  }

  /**
   * The writer's {@code synchronous} setting as the work's transaction sees it: 1 NORMAL, 2 FULL.
   */
  private static int synchronous(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("PRAGMA synchronous")) {
      r.next();
      return r.getInt(1);
    }
  }

  @Test
  void writeUnsynced_alone_commitsWithoutFsync_andASyncedWriteAfterItWithFsync() throws Exception {
    int unsynced =
        commits.writeUnsynced(
            c -> {
              insert(c, 1);
              return synchronous(c);
            });
    int synced =
        commits.write(
            c -> {
              insert(c, 2);
              return synchronous(c);
            });

    assertThat(unsynced).as("NORMAL: WAL written, not fsynced").isEqualTo(1);
    assertThat(synced).as("FULL: fsynced before it answers").isEqualTo(2);
    assertThat(committed()).as("both committed, seen by another connection").containsExactly(1, 2);
  }

  @Test
  void writeUnsynced_sharingABatchWithASyncedWrite_isCommittedWithFsync() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      Future<Integer> first =
          threads.submit(
              () ->
                  commits.write(
                      c -> {
                        holding.countDown();
                        try {
                          release.await(1, TimeUnit.MINUTES);
                        } catch (InterruptedException e) {
                          throw new SQLException("interrupted while holding the writer", e);
                        }
                        return insert(c, 1);
                      }));
      holding.await(1, TimeUnit.MINUTES);
      List<Thread> waiting = new ArrayList<>();
      Future<Integer> unsynced =
          threads.submit(
              noted(
                  waiting,
                  () ->
                      commits.writeUnsynced(
                          c -> {
                            insert(c, 2);
                            return synchronous(c);
                          })));
      Future<Integer> synced =
          threads.submit(
              noted(
                  waiting,
                  () ->
                      commits.write(
                          c -> {
                            insert(c, 3);
                            return synchronous(c);
                          })));
      // both queued behind the write holding the writer, so the next batch takes them together
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (!bothWaiting(waiting) && System.nanoTime() < deadline) Thread.onSpinWait();
      assertThat(bothWaiting(waiting)).as("both writes queued").isTrue();
      release.countDown();

      assertThat(first.get(1, TimeUnit.MINUTES)).isEqualTo(1);
      assertThat(unsynced.get(1, TimeUnit.MINUTES))
          .as("in a batch with a synced write: FULL")
          .isEqualTo(2);
      assertThat(synced.get(1, TimeUnit.MINUTES)).isEqualTo(2);
      assertThat(committed()).containsExactly(1, 2, 3);
    } finally {
      release.countDown();
      threads.shutdownNow();
    }
  }

  /** The write, its thread noted in {@code waiting} first. */
  private static Callable<Integer> noted(List<Thread> waiting, Callable<Integer> write) {
    return () -> {
      synchronized (waiting) {
        waiting.add(Thread.currentThread());
      }
      return write.call();
    };
  }

  private static boolean bothWaiting(List<Thread> waiting) {
    return allWaiting(waiting, 2);
  }

  private static boolean allWaiting(List<Thread> waiting, int threads) {
    synchronized (waiting) {
      return waiting.size() == threads
          && waiting.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
    }
  }

  @Test
  void prepared_isKeptForTheNextWrite_refusedOutsideOne_andPreparedAgainAfterAFailure()
      throws Exception {
    String sql = "INSERT INTO item (n) VALUES (?)";
    PreparedStatement first =
        commits.write(
            c -> {
              PreparedStatement s = commits.prepared(sql);
              s.setInt(1, 1);
              s.executeUpdate();
              return s;
            });
    PreparedStatement second =
        commits.write(
            c -> {
              PreparedStatement s = commits.prepared(sql);
              s.setInt(1, 2);
              s.executeUpdate();
              return s;
            });
    assertThatThrownBy(
            () ->
                commits.write(
                    c -> {
                      PreparedStatement s = commits.prepared(sql);
                      s.setInt(1, 2); // a clash: the work fails
                      return s.executeUpdate();
                    }))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("UNIQUE");
    PreparedStatement afterFailure =
        commits.write(
            c -> {
              PreparedStatement s = commits.prepared(sql);
              s.setInt(1, 3);
              s.executeUpdate();
              return s;
            });

    assertThat(second).as("kept").isSameAs(first);
    assertThat(first.isClosed()).as("closed after the failure").isTrue();
    assertThat(afterFailure).isNotSameAs(first);
    assertThatThrownBy(() -> commits.prepared(sql))
        .as("outside a write")
        .isInstanceOf(IllegalStateException.class);
    assertThat(committed()).containsExactly(1, 2, 3);
  }

  /**
   * Recurses until the stack is gone: a real {@code StackOverflowError}, from a work's own code.
   */
  private static int deep(int n) {
    return n == Integer.MAX_VALUE ? n : deep(n + 1) + 1;
  }

  /**
   * Whether another connection can write the file at once: none while a transaction of the writer
   * is left open, which would hold every other process's writes with {@code SQLITE_BUSY}.
   */
  private boolean anotherConnectionWrites(int n) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(500);
    try (Connection other =
        config.createConnection("jdbc:sqlite:" + directory.resolve("items.db"))) {
      insert(other, n);
      return true;
    }
  }

  private int inserted(int n) throws SQLException {
    return commits.write(c -> insert(c, n));
  }

  @Test
  void write_alone_workThrowsError_rollsBackAndTheStoreStaysUsable() throws Exception {
    assertThatThrownBy(
            () ->
                commits.write(
                    c -> {
                      insert(c, 1);
                      return deep(0);
                    }))
        .isInstanceOf(StackOverflowError.class);

    assertThat(inserted(2)).as("the next write").isEqualTo(1);
    assertThat(anotherConnectionWrites(3)).isTrue();
    assertThat(committed()).containsExactly(2, 3);
  }

  @Test
  void write_inABatch_workThrowsError_failsTheBatchAndTheStoreStaysUsable() throws Exception {
    List<Future<Integer>> outcomes =
        inOneBatch(
            c -> insert(c, 1),
            c -> {
              insert(c, 2);
              return deep(0);
            },
            c -> insert(c, 3));

    assertThat(outcomes.get(0).get(1, TimeUnit.MINUTES)).as("the batch before").isEqualTo(1);
    assertThatThrownBy(() -> outcomes.get(1).get(1, TimeUnit.MINUTES))
        .hasCauseInstanceOf(StackOverflowError.class);
    assertThatThrownBy(() -> outcomes.get(2).get(1, TimeUnit.MINUTES))
        .as("a write sharing the transaction")
        .hasCauseInstanceOf(SQLException.class)
        .hasRootCauseInstanceOf(StackOverflowError.class);
    assertThat(inserted(4)).as("the next write").isEqualTo(1);
    assertThat(anotherConnectionWrites(5)).isTrue();
    assertThat(committed()).containsExactly(1, 4, 5);
  }

  @Test
  void write_commitFails_failsTheWriteAndTheStoreStaysUsable() throws Exception {
    try (Statement s = writer.createStatement()) {
      s.execute("PRAGMA foreign_keys = ON");
      s.execute(
          "CREATE TABLE line (item INTEGER REFERENCES item (n) DEFERRABLE INITIALLY DEFERRED)");
    }
    // checked at COMMIT, which fails and leaves the transaction open
    assertThatThrownBy(
            () ->
                commits.write(
                    c -> {
                      try (Statement s = c.createStatement()) {
                        return s.executeUpdate("INSERT INTO line (item) VALUES (42)");
                      }
                    }))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("FOREIGN KEY");

    assertThat(inserted(1)).as("the next write").isEqualTo(1);
    assertThat(anotherConnectionWrites(2)).isTrue();
    assertThat(committed()).containsExactly(1, 2);
  }

  @Test
  void write_inABatch_rollbackToFails_failsTheBatchAndTheStoreStaysUsable() throws Exception {
    List<Future<Integer>> outcomes =
        inOneBatch(
            c -> insert(c, 1),
            c -> insert(c, 2),
            c -> {
              try (Statement s = c.createStatement()) {
                s.execute("RELEASE write"); // its savepoint gone, ROLLBACK TO it fails
              }
              return 0;
            },
            c -> insert(c, 3));

    assertThat(outcomes.get(0).get(1, TimeUnit.MINUTES)).as("the batch before").isEqualTo(1);
    for (Future<Integer> outcome : outcomes.subList(1, 4)) {
      assertThatThrownBy(() -> outcome.get(1, TimeUnit.MINUTES))
          .hasCauseInstanceOf(SQLException.class);
    }
    assertThat(inserted(4)).as("the next write").isEqualTo(1);
    assertThat(anotherConnectionWrites(5)).isTrue();
    assertThat(committed()).containsExactly(1, 4, 5);
  }

  /**
   * Runs the first work alone, holding the writer until every other one is queued behind it, so the
   * others share the next batch; each of the others is kept only when its result is not 0.
   */
  @SafeVarargs
  private List<Future<Integer>> inOneBatch(
      GroupCommit.Work<Integer> first, GroupCommit.Work<Integer>... rest) throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(rest.length + 1);
    try {
      List<Future<Integer>> outcomes = new ArrayList<>();
      outcomes.add(
          threads.submit(
              () ->
                  commits.write(
                      c -> {
                        holding.countDown();
                        try {
                          release.await(1, TimeUnit.MINUTES);
                        } catch (InterruptedException e) {
                          throw new SQLException("interrupted while holding the writer", e);
                        }
                        return first.run(c);
                      })));
      holding.await(1, TimeUnit.MINUTES);
      List<Thread> waiting = new ArrayList<>();
      for (GroupCommit.Work<Integer> work : rest) {
        outcomes.add(
            threads.submit(noted(waiting, () -> commits.write(work, result -> result != 0))));
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (!allWaiting(waiting, rest.length) && System.nanoTime() < deadline) Thread.onSpinWait();
      assertThat(allWaiting(waiting, rest.length)).as("every write queued").isTrue();
      release.countDown();
      for (Future<Integer> outcome : outcomes) {
        try {
          outcome.get(1, TimeUnit.MINUTES);
        } catch (java.util.concurrent.ExecutionException expected) {
          // each test says which fail
        }
      }
      return outcomes;
    } finally {
      release.countDown();
      threads.shutdown();
    }
  }

  @Test
  void write_afterClose_isRefusedWithTheClosedFailure() {
    commits.close();

    assertThatThrownBy(() -> commits.write(c -> insert(c, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("closed for the test");
  }
}
