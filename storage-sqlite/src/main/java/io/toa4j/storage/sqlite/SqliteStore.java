package io.toa4j.storage.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;

/**
 * One component's records in one SQLite file.
 *
 * <p>Writes go through a single connection under a lock: SQLite has one writer per file anyway, and
 * serialising in the process spares the busy-retry loop. Reads use a small pool of their own
 * connections, which WAL lets run beside the writer. Other processes may open the same file; the
 * busy timeout covers them.
 */
final class SqliteStore implements Store {
  private static final int READERS = 4;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Connection writer;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final BlockingQueue<Connection> readers = new ArrayBlockingQueue<>(READERS);

  SqliteStore(Path file) {
    this.file = file;
    try {
      this.writer = open(file, false);
      Migrations.apply(writer, file);
      for (int i = 0; i < READERS; i++) readers.add(open(file, true));
    } catch (SQLException e) {
      throw failure("open", e);
    }
  }

  private static Connection open(Path file, boolean readOnly) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(30_000);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    config.setReadOnly(readOnly);
    return config.createConnection("jdbc:sqlite:" + file);
  }

  @Override
  public Optional<StoredRecord> read(String id) {
    return withReader(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement("SELECT id, version, created, updated, state FROM records WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
              return r.next() ? Optional.of(record(r)) : Optional.empty();
            }
          }
        });
  }

  @Override
  public List<StoredRecord> page(long limit, long omit) {
    return withReader(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT id, version, created, updated, state FROM records ORDER BY created, id LIMIT ? OFFSET ?")) {
            s.setLong(1, limit);
            s.setLong(2, omit);
            try (ResultSet r = s.executeQuery()) {
              List<StoredRecord> page = new ArrayList<>();
              while (r.next()) page.add(record(r));
              return page;
            }
          }
        });
  }

  @Override
  public Outcome commit(Write write) {
    StoredRecord next = write.record();
    String state = serialize(next.state());
    writeLock.lock();
    try {
      writer.setAutoCommit(false);
      try {
        Outcome outcome =
            write.expectedVersion() == 0 ? insert(next, state) : update(write.expectedVersion(), next, state);
        if (outcome == Outcome.COMMITTED) writer.commit();
        else writer.rollback();
        return outcome;
      } catch (SQLException | RuntimeException e) {
        writer.rollback();
        throw e;
      } finally {
        writer.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw failure("commit record " + next.id() + " at version " + next.version(), e);
    } finally {
      writeLock.unlock();
    }
  }

  private Outcome insert(StoredRecord next, String state) throws SQLException {
    try (PreparedStatement s =
        writer.prepareStatement(
            "INSERT INTO records (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?)")) {
      s.setString(1, next.id());
      s.setLong(2, next.version());
      s.setLong(3, next.created());
      s.setLong(4, next.updated());
      s.setString(5, state);
      s.executeUpdate();
      return Outcome.COMMITTED;
    } catch (SQLException e) {
      if (isConstraint(e)) return Outcome.CONFLICT;
      throw e;
    }
  }

  private Outcome update(long expected, StoredRecord next, String state) throws SQLException {
    try (PreparedStatement s =
        writer.prepareStatement(
            "UPDATE records SET version = ?, updated = ?, state = ? WHERE id = ? AND version = ?")) {
      s.setLong(1, next.version());
      s.setLong(2, next.updated());
      s.setString(3, state);
      s.setString(4, next.id());
      s.setLong(5, expected);
      return s.executeUpdate() == 1 ? Outcome.COMMITTED : Outcome.CONFLICT;
    }
  }

  private static boolean isConstraint(SQLException e) {
    return e.getErrorCode() == SQLiteErrorCode.SQLITE_CONSTRAINT.code;
  }

  private interface Query<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T withReader(Query<T> query) {
    Connection c;
    try {
      c = readers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a connection to " + file, e);
    }
    try {
      return query.run(c);
    } catch (SQLException e) {
      throw failure("read", e);
    } finally {
      readers.add(c);
    }
  }

  private static StoredRecord record(ResultSet r) throws SQLException {
    try {
      return new StoredRecord(
          r.getString(1),
          r.getLong(2),
          r.getLong(3),
          r.getLong(4),
          (ObjectNode) JSON.readTree(r.getString(5)));
    } catch (JsonProcessingException e) {
      throw new SQLException("The stored state of record " + r.getString(1) + " is not JSON", e);
    }
  }

  private static String serialize(ObjectNode state) {
    try {
      return JSON.writeValueAsString(state);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("A record's state cannot be written as JSON", e);
    }
  }

  private IllegalStateException failure(String what, SQLException e) {
    return new IllegalStateException(
        "SQLite could not " + what + " in " + file + ": " + e.getMessage(), e);
  }

  void close() {
    writeLock.lock();
    try {
      closeQuietly(writer);
      readers.forEach(SqliteStore::closeQuietly);
    } finally {
      writeLock.unlock();
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing: nothing left to protect
    }
  }
}
