package io.toa4j.storage.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The store's schema, as numbered steps applied in order and recorded in SQLite's {@code
 * user_version}. A step, once released, never changes; a new need is a new step.
 */
final class Migrations {
  static final List<String> STEPS =
      List.of(
          "CREATE TABLE records ("
              + " id TEXT PRIMARY KEY,"
              + " version INTEGER NOT NULL,"
              + " created INTEGER NOT NULL,"
              + " updated INTEGER NOT NULL,"
              + " state TEXT NOT NULL)",
          "CREATE INDEX records_created ON records (created, id)",
          "CREATE TABLE outbox ("
              + " id TEXT PRIMARY KEY,"
              + " created INTEGER NOT NULL,"
              + " change TEXT NOT NULL,"
              + " published INTEGER)",
          "CREATE INDEX outbox_unpublished ON outbox (id) WHERE published IS NULL",
          "CREATE INDEX outbox_published ON outbox (published) WHERE published IS NOT NULL",
          "CREATE TABLE inbox ("
              + " identity TEXT PRIMARY KEY,"
              + " reply TEXT NOT NULL,"
              + " expires INTEGER NOT NULL)",
          "CREATE INDEX inbox_expires ON inbox (expires)",
          "ALTER TABLE outbox ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0",
          // what the answered call asked for; NULL for entries answered before it was kept
          "ALTER TABLE inbox ADD COLUMN fingerprint TEXT",
          // the tasks an entry sends, as a JSON array; NULL for none, as every entry written
          // before.
          // An entry with tasks and no change stores the JSON text null as its change.
          "ALTER TABLE outbox ADD COLUMN tasks TEXT",
          // An entry keeps its answer until it expires, then only the record that the call was
          // answered (when, for which request, which record) until it is forgotten. due is the
          // entry's next deadline: expires while it holds its answer, forgotten after; the purge
          // walks it. reply may now be NULL, which SQLite's ALTER TABLE cannot grant: a new table.
          "CREATE TABLE inbox_kept ("
              + " identity TEXT PRIMARY KEY,"
              + " reply TEXT,"
              + " expires INTEGER NOT NULL,"
              + " fingerprint TEXT,"
              + " answered INTEGER NOT NULL DEFAULT 0,"
              + " forgotten INTEGER NOT NULL,"
              + " record TEXT,"
              + " due INTEGER NOT NULL)",
          "INSERT INTO inbox_kept (identity, reply, expires, fingerprint, forgotten, due)"
              + " SELECT identity, reply, expires, fingerprint, expires, expires FROM inbox",
          "DROP TABLE inbox",
          "ALTER TABLE inbox_kept RENAME TO inbox",
          "CREATE INDEX inbox_due ON inbox (due)",
          // the trace context of the call that committed an entry, as a JSON object; NULL when it
          // was not traced, as every entry written before
          "ALTER TABLE outbox ADD COLUMN trace TEXT");

  private Migrations() {}

  static void apply(Connection c, Path file) throws SQLException {
    c.setAutoCommit(false);
    boolean ended = false; // the transaction committed or rolled back
    try (Statement s = c.createStatement()) {
      int current = version(s);
      if (current > STEPS.size()) {
        throw new SQLException(
            file
                + " is at schema version "
                + current
                + ", newer than this toa4j knows ("
                + STEPS.size()
                + ")");
      }
      for (int step = current; step < STEPS.size(); step++) {
        s.execute(STEPS.get(step));
      }
      s.execute("PRAGMA user_version = " + STEPS.size());
      c.commit();
      ended = true;
    } catch (SQLException e) {
      c.rollback();
      ended = true;
      throw e;
    } finally {
      // Only once the transaction has ended: turning auto-commit on inside one commits it. After
      // anything but a SQLException (an Error in the middle of a step) the store closes the
      // connection, and SQLite rolls back what it left open — steps committed without the version
      // that records them would fail every later open.
      if (ended) c.setAutoCommit(true);
    }
  }

  private static int version(Statement s) throws SQLException {
    try (ResultSet r = s.executeQuery("PRAGMA user_version")) {
      return r.next() ? r.getInt(1) : 0;
    }
  }
}
