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
    try (Connection c = connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT n FROM item ORDER BY n")) {
      List<Integer> items = new ArrayList<>();
      while (r.next()) items.add(r.getInt(1));
      return items;
    }
  }

  /**
   * Threads write at once: every multiple of 3 is not kept, every multiple of 5 (not of 3) fails
   * in its own statements; every other write is committed, whichever batch it shared.
   */
  @Test
  void concurrentWrites_eachKeepsItsOwnOutcome() throws Exception {
    int writes = 600;
    ExecutorService threads = Executors.newFixedThreadPool(16);
    List<Future<Integer>> outcomes = new ArrayList<>();
    for (int i = 1; i <= writes; i++) {
      int n = i;
      outcomes.add(threads.submit(() -> commits.write(c -> {
        insert(c, n);
        if (n % 3 != 0 && n % 5 == 0) insert(c, n); // the same key again: the statement fails
        return n;
      }, result -> result % 3 != 0)));
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

  @Test
  void write_afterClose_isRefusedWithTheClosedFailure() {
    commits.close();

    assertThatThrownBy(() -> commits.write(c -> insert(c, 1))).isInstanceOf(IllegalStateException.class).hasMessage("closed for the test");
  }
}
