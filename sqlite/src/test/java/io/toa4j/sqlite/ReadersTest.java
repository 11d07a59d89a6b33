package io.toa4j.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
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
