package io.toa4j.bus.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The bus's schema, as numbered steps applied in order and recorded in SQLite's {@code
 * user_version}. A step, once released, never changes; a new need is a new step.
 *
 * <p>{@code queue} holds the declared queues, {@code binding} which labels each one receives.
 * {@code message} holds every message of every queue: pending while {@code parked_at} is null,
 * parked after; {@code attempts} counts deliveries begun; a message is due when {@code not_before}
 * has passed by the bus's clock; {@code first_failed} is when a verdict first failed it (a retry or
 * a park), null until then. {@code (queue, message_id)} is unique across pending and parked
 * messages, which is what makes a repeated publish harmless.
 */
final class Schema {
  private static final List<String> STEPS =
      List.of(
          "CREATE TABLE queue (name TEXT PRIMARY KEY, declared INTEGER NOT NULL) WITHOUT ROWID",
          "CREATE TABLE binding ("
              + " label TEXT NOT NULL,"
              + " queue TEXT NOT NULL,"
              + " PRIMARY KEY (label, queue)) WITHOUT ROWID",
          "CREATE TABLE message ("
              + " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
              + " queue TEXT NOT NULL,"
              + " message_id TEXT NOT NULL,"
              + " label TEXT NOT NULL,"
              + " body TEXT NOT NULL,"
              + " headers TEXT NOT NULL,"
              + " attempts INTEGER NOT NULL,"
              + " not_before INTEGER NOT NULL,"
              + " created INTEGER NOT NULL,"
              + " parked_at INTEGER,"
              + " park_code TEXT,"
              + " park_reason TEXT,"
              + " UNIQUE (queue, message_id))",
          "CREATE INDEX message_due ON message (queue, not_before, seq) WHERE parked_at IS NULL",
          "CREATE INDEX message_parked ON message (parked_at, seq) WHERE parked_at IS NOT NULL",
          "ALTER TABLE message ADD COLUMN first_failed INTEGER");

  private Schema() {}

  /** Applies the steps the file lacks, inside the caller's transaction. */
  static Void upgrade(Connection c, Path file) throws SQLException {
    try (Statement s = c.createStatement()) {
      int current = version(s);
      if (current > STEPS.size()) {
        throw new IllegalStateException(
            file
                + " is at bus schema version "
                + current
                + ", newer than this toa4j knows ("
                + STEPS.size()
                + "). Run the toa4j that wrote it, or move the file aside to start empty.");
      }
      for (int step = current; step < STEPS.size(); step++) s.execute(STEPS.get(step));
      if (current < STEPS.size()) s.execute("PRAGMA user_version = " + STEPS.size());
    }
    return null;
  }

  static int version(Statement s) throws SQLException {
    try (ResultSet r = s.executeQuery("PRAGMA user_version")) {
      return r.next() ? r.getInt(1) : 0;
    }
  }

  static int latest() {
    return STEPS.size();
  }
}
