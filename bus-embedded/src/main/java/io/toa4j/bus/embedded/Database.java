package io.toa4j.bus.embedded;

import io.toa4j.spi.OwnerOnly;
import io.toa4j.sqlite.GroupCommit;
import io.toa4j.sqlite.NativeLibrary;
import io.toa4j.sqlite.Readers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * One SQLite file: a single writer connection, its writes committed in groups, and a few reader
 * connections.
 *
 * <p>SQLite has one writer per file anyway; serialising writers in the process spares them the
 * busy-retry loop, and the busy timeout covers writers in other processes. Every write runs in a
 * {@code BEGIN IMMEDIATE} transaction, shared with the writes that waited beside it ({@link
 * GroupCommit}) and committed with {@code synchronous=FULL} in WAL mode, so it is on disk when
 * {@link #write} returns; {@link #writeUnsynced} (a claim, or verdicts that only remove or postpone
 * messages) is committed without the fsync, unless it shares its transaction with a write. Readers
 * run beside the writer, each statement on the latest committed state.
 *
 * <p>Thread-safe. After {@link #close()}, every call fails with {@link Closed}.
 */
final class Database implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final int READERS = 4;

  /** The longest a read waits for a free reader, then fails naming the file and the numbers. */
  private static final Duration READER_WAIT = Duration.ofSeconds(30);

  /** The longest closing waits for the readers in use to come back. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /** Work on a connection, inside a transaction for writes. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** The database was closed: the work was not done. */
  static final class Closed extends IllegalStateException {
    Closed(Path file) {
      super("The embedded bus at " + file + " is closed");
    }
  }

  /** The most writes one transaction commits together. */
  private static final int BATCH = 64;

  private final Path file;
  private final Connection writer;
  private final GroupCommit commits;
  private final Readers readers;

  private volatile boolean closed;

  private Database(Path file, Connection writer, List<Connection> reading) {
    this.file = file;
    this.writer = writer;
    this.commits = new GroupCommit(writer, BATCH, () -> new Closed(file));
    this.readers = new Readers(file, reading, READER_WAIT, CLOSE_WAIT, () -> new Closed(file));
  }

  /** Opens the file, creating it and bringing its schema up to date. */
  static Database open(Path file, Duration busyTimeout) {
    List<Connection> opened = new ArrayList<>();
    // SQLite makes the -wal and -shm files with the database file's mode (on unix), so making the
    // database file first, 0600, makes them 0600 too; SQLite takes an empty file for an empty
    // database.
    OwnerOnly.file(file, LOG::warn);
    NativeLibrary.prepareIn(file.toAbsolutePath().getParent());
    try {
      Connection writer = connect(file, busyTimeout, false, opened);
      for (String companion : List.of("-wal", "-shm"))
        OwnerOnly.check(file.resolveSibling(file.getFileName() + companion), LOG::warn);
      List<Connection> reading = new ArrayList<>();
      for (int i = 0; i < READERS; i++) reading.add(connect(file, busyTimeout, true, opened));
      Database db = new Database(file, writer, reading);
      db.write("create or upgrade the schema", c -> Schema.upgrade(c, file));
      return db;
    } catch (SQLException e) {
      opened.forEach(Readers::closeQuietly);
      throw failure(file, "open the file", e);
    } catch (RuntimeException
        | Error e) { // an Error too: a file that cannot be opened stays closed
      opened.forEach(Readers::closeQuietly);
      throw e;
    }
  }

  private static Connection connect(
      Path file, Duration busyTimeout, boolean reader, List<Connection> opened)
      throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout((int) busyTimeout.toMillis());
    if (!reader) {
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    }
    Connection c = config.createConnection("jdbc:sqlite:" + file);
    opened.add(c);
    if (reader) {
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA query_only = 1");
      }
    }
    return c;
  }

  /**
   * Runs the work in a {@code BEGIN IMMEDIATE} transaction on the writer connection, committed (and
   * so durable) when this returns; if it throws, nothing it wrote is kept.
   *
   * @param what what the work does, for the message of a failure
   */
  <T> T write(String what, Work<T> work) {
    try {
      return commits.write(work::run);
    } catch (SQLException e) {
      throw failure(file, what, e);
    }
  }

  /**
   * As {@link #write}, without waiting for the disk unless a durable write shares the transaction
   * ({@link GroupCommit#writeUnsynced}): for writes whose loss on power failure only repeats a
   * delivery. What it wrote survives a crash of the process.
   */
  <T> T writeUnsynced(String what, Work<T> work) {
    try {
      return commits.writeUnsynced(work::run);
    } catch (SQLException e) {
      throw failure(file, what, e);
    }
  }

  /**
   * A statement on the writer, kept for the next write that asks for it ({@link
   * GroupCommit#prepared}): only inside a write's work; never closed by it.
   */
  PreparedStatement prepared(String sql) throws SQLException {
    return commits.prepared(sql);
  }

  /**
   * A statement on the reader {@code c}, kept for the next read on that reader that asks for it:
   * only inside a {@link #read} work, on the connection it was given; never closed by it. The work
   * sets every parameter and closes its result sets. After a work fails, the reader's statements
   * are closed and prepared again when next asked for ({@link Readers#read}).
   */
  PreparedStatement prepared(Connection c, String sql) throws SQLException {
    return readers.prepared(c, sql);
  }

  /** Runs the work on a reader connection, outside any transaction. */
  <T> T read(String what, Work<T> work) {
    try {
      return readers.read(work::run);
    } catch (SQLException e) {
      throw failure(file, what, e);
    }
  }

  boolean isClosed() {
    return closed;
  }

  Path file() {
    return file;
  }

  /**
   * Closes every connection, waiting at most {@link #CLOSE_WAIT} for the readers in use; one that
   * comes back later is closed when it does.
   */
  @Override
  public synchronized void close() {
    if (closed) return;
    commits.close(); // the batch being committed finishes; later writes fail with Closed
    closed = true;
    Readers.closeQuietly(writer);
    int left = readers.close();
    if (left > 0) {
      LOG.warn(
          "{} readers of {} were still in use {} ms after the bus closed; each is closed when its read ends",
          left,
          file,
          CLOSE_WAIT.toMillis());
    }
  }

  private static IllegalStateException failure(Path file, String what, SQLException e) {
    return new IllegalStateException(
        "The embedded bus could not " + what + " in " + file + ": " + e.getMessage(), e);
  }
}
