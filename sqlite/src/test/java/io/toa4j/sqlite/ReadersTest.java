package io.toa4j.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.tck.stack.Overflow;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/** A pool of readers ({@link Readers}), on connections to a real SQLite file. */
class ReadersTest {
  static final Duration PATIENCE = Duration.ofSeconds(30);
  static final Duration SHORT = Duration.ofMillis(200);

  @TempDir Path directory;
  private final List<Connection> opened = new ArrayList<>();
  private Path file;

  @AfterEach
  void closeAll() {
    opened.forEach(Readers::closeQuietly);
  }

  @Test
  void take_noneFreeWithinTheWait_failsNamingTheFileAndTheNumbers() throws Exception {
    Readers readers = readers(2, SHORT, PATIENCE);
    readers.take();
    readers.take();

    assertThatThrownBy(readers::take)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining(
            "none of its 2 readers came free in 200 ms (2 in use, 1 reads waiting)");
  }

  @Test
  void take_whileAllAreInUse_getsTheOneGivenBack() throws Exception {
    Readers readers = readers(1, PATIENCE, PATIENCE);
    Connection first = readers.take();
    CompletableFuture<Connection> second = CompletableFuture.supplyAsync(readers::take);
    await().during(SHORT).atMost(PATIENCE).until(() -> !second.isDone());

    readers.give(first);

    Connection c = second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(c).isSameAs(first);
    assertThat(count(c)).isZero();
  }

  @Test
  void close_withAReaderInUse_waitsForIt_andClosesItWhenItIsGivenBack() throws Exception {
    Readers readers = readers(2, PATIENCE, PATIENCE);
    Connection used = readers.take();
    CompletableFuture<Integer> closing = CompletableFuture.supplyAsync(readers::close);
    await().during(SHORT).atMost(PATIENCE).until(() -> !closing.isDone());
    assertThat(opened.subList(1, 3))
        .filteredOn(c -> c != used)
        .allMatch(ReadersTest::closed, "the idle one closed at once");

    readers.give(used);

    assertThat(closing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
        .as("readers still in use when it returned")
        .isZero();
    assertThat(used.isClosed()).isTrue();
  }

  @Test
  void close_withAReaderNeverGivenBack_returnsAfterTheWait_andClosesItWhenItComesBack()
      throws Exception {
    Readers readers = readers(1, PATIENCE, SHORT);
    Connection used = readers.take();

    assertThat(readers.close()).as("readers still in use when it returned").isEqualTo(1);
    assertThat(used.isClosed()).as("still in use by its read").isFalse();
    readers.give(used);

    assertThat(used.isClosed()).isTrue();
  }

  @Test
  void take_afterClose_orWaitingWhenItCloses_failsSayingTheStoreIsClosed() throws Exception {
    Readers readers = readers(1, PATIENCE, SHORT);
    Connection used = readers.take();
    CompletableFuture<Connection> waiting = CompletableFuture.supplyAsync(readers::take);
    await().during(SHORT).atMost(PATIENCE).until(() -> !waiting.isDone());

    readers.close();

    assertThat(waiting)
        .failsWithin(PATIENCE)
        .withThrowableThat()
        .havingRootCause()
        .withMessageContaining("the store is closed");
    assertThatThrownBy(readers::take)
        .hasMessage("SQLite could not read in " + file + ": the store is closed");
    readers.give(used);
  }

  @Test
  void read_thatReturns_keepsTheStatementsItPrepared_forTheNextReadOnTheConnection()
      throws Exception {
    Readers readers = readers(1, PATIENCE, PATIENCE);
    PreparedStatement first = readers.read(c -> counted(readers, c));

    PreparedStatement second = readers.read(c -> counted(readers, c));

    assertThat(second).isSameAs(first);
    assertThat(second.isClosed()).isFalse();
  }

  @Test
  void read_thatThrowsAnError_leavesItsStatementsToBeClosed_andPreparedAgainByTheNextRead()
      throws Exception {
    Readers readers = readers(1, PATIENCE, PATIENCE);
    List<PreparedStatement> left = new ArrayList<>();
    Error cut = new Error("cut short");

    assertThatThrownBy(
            () ->
                readers.read(
                    c -> {
                      PreparedStatement s = readers.prepared(c, "SELECT x FROM t");
                      left.add(s);
                      s.executeQuery(); // its result set left open
                      throw cut;
                    }))
        .isSameAs(cut);
    PreparedStatement next = readers.read(c -> counted(readers, c));
    PreparedStatement again = readers.read(c -> readers.prepared(c, "SELECT x FROM t"));

    assertThat(left.get(0).isClosed()).as("the statement the failed read left").isTrue();
    assertThat(again).isNotSameAs(left.get(0));
    assertThat(next.isClosed()).isFalse();
  }

  @Test
  void prepared_onAConnectionNotOfThePool_isRefusedNamingTheFile() throws Exception {
    Readers readers = readers(1, PATIENCE, PATIENCE);

    assertThatThrownBy(() -> readers.prepared(opened.get(0), "SELECT 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The connection is not a reader of " + file);
  }

  /**
   * A read cut short by a {@link StackOverflowError} at any depth inside it ({@link Overflow}) — in
   * the pool, in the kept statements, in the driver — leaves every reader usable: the reads after
   * the exploration each get a connection and answer.
   */
  @Test
  void read_cutShortByAnErrorAtAnyDepth_leavesEveryReaderUsable() throws Exception {
    Readers readers = readers(2, PATIENCE, PATIENCE);
    readers.read(c -> counted(readers, c).getConnection()); // every class a read uses, loaded

    int erredInside = 0;
    int inARow = 0;
    Throwable last = null;
    int step = 1;
    for (int spare = 0; spare < 40_000 && inARow < 5; spare += step) {
      Overflow.Try<Long> attempt =
          Overflow.call(() -> readers.read(c -> countWith(readers, c)), spare, PATIENCE);
      if (attempt.erredInside()) erredInside++;
      if (attempt.error() != null) last = attempt.error();
      inARow = attempt.returned() ? inARow + 1 : 0;
      step = attempt.entered() ? 1 : 16;
    }

    assertThat(inARow)
        .as("reads return once they have the stack they need; the last failure: %s", last)
        .isEqualTo(5);
    assertThat(erredInside).as("reads cut short once inside").isGreaterThanOrEqualTo(3);
    for (int i = 0; i < 4; i++) {
      CompletableFuture<Long> read =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return readers.read(c -> countWith(readers, c));
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(read).succeedsWithin(PATIENCE).isEqualTo(0L);
    }
  }

  /** Counts the rows with the kept statement, and answers the statement. */
  private static PreparedStatement counted(Readers readers, Connection c) throws SQLException {
    PreparedStatement s = readers.prepared(c, "SELECT count(*) FROM t");
    try (ResultSet r = s.executeQuery()) {
      r.next();
      assertThat(r.getLong(1)).isZero();
    }
    return s;
  }

  private static long countWith(Readers readers, Connection c) throws SQLException {
    try (ResultSet r = readers.prepared(c, "SELECT count(*) FROM t").executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  /**
   * A pool of {@code n} read-only connections to a file with one empty table, beside its writer.
   */
  private Readers readers(int n, Duration wait, Duration closeWait) throws SQLException {
    file = directory.resolve("test.db");
    Connection writer = new SQLiteConfig().createConnection("jdbc:sqlite:" + file);
    opened.add(writer);
    try (Statement s = writer.createStatement()) {
      s.execute("CREATE TABLE t (x INTEGER)");
    }
    List<Connection> connections = new ArrayList<>();
    SQLiteConfig reader = new SQLiteConfig();
    reader.setReadOnly(true);
    for (int i = 0; i < n; i++) connections.add(reader.createConnection("jdbc:sqlite:" + file));
    opened.addAll(connections);
    return new Readers(
        file,
        connections,
        wait,
        closeWait,
        () ->
            new IllegalStateException(
                "SQLite could not read in " + file + ": the store is closed"));
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM t")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static boolean closed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
