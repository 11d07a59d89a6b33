package io.toa4j.storage.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A component's schema, as numbered steps applied in order and recorded in its {@code
 * toa_migrations} table. A step, once released, never changes; a new need is a new step.
 *
 * <p>All pending steps run in one transaction under a transaction-scoped advisory lock keyed by the
 * schema's name, so processes starting at once migrate one after another: the first applies the
 * steps, the others find them recorded. Either every pending step lands or none does. A schema
 * already current costs one query: its last recorded step is read first, without the lock. A
 * migration cut short by anything but a {@link SQLException} leaves its connection as it is, in the
 * transaction, for the pool to discard.
 */
final class Migrations {
  /** The advisory lock's first key, toa4j's own, so it does not meet other users' locks. */
  private static final int LOCK_SPACE = 0x70a4;

  /** PostgreSQL's SQLSTATE for a table, or a schema named with it, that does not exist. */
  private static final String UNDEFINED_TABLE = "42P01";

  private static final String UNDEFINED_SCHEMA = "3F000";

  private Migrations() {}

  /** The steps, where {@code %s} stands for the schema's quoted name. Step n is at index n - 1. */
  static final List<String> STEPS =
      List.of(
          "CREATE TABLE %s.records ("
              + " id text PRIMARY KEY,"
              + " version bigint NOT NULL,"
              + " created bigint NOT NULL,"
              + " updated bigint NOT NULL,"
              + " state jsonb NOT NULL)",
          "CREATE INDEX records_created ON %s.records (created, id)",
          "CREATE TABLE %s.outbox ("
              + " id text PRIMARY KEY,"
              + " created bigint NOT NULL,"
              + " change jsonb NOT NULL,"
              + " published bigint NULL)",
          "CREATE INDEX outbox_unpublished ON %s.outbox (id) WHERE published IS NULL",
          "CREATE INDEX outbox_published ON %s.outbox (published) WHERE published IS NOT NULL",
          "CREATE TABLE %s.inbox ("
              + " identity text PRIMARY KEY,"
              + " reply jsonb NOT NULL,"
              + " expires bigint NOT NULL)",
          "CREATE INDEX inbox_expires ON %s.inbox (expires)",
          "ALTER TABLE %s.outbox ADD COLUMN claimed_until bigint NOT NULL DEFAULT 0",
          // what the answered call asked for; NULL for entries answered before it was kept
          "ALTER TABLE %s.inbox ADD COLUMN fingerprint text NULL",
          // the tasks an entry sends, as a JSON array; NULL for none, as every entry written before
          "ALTER TABLE %s.outbox ADD COLUMN tasks jsonb NULL",
          // an entry that sends tasks while no one consumes the component's events has no change
          "ALTER TABLE %s.outbox ALTER COLUMN change DROP NOT NULL",
          // An entry keeps its answer until it expires, then only the record that the call was
          // answered (when, for which request, which record) until it is forgotten. due is the
          // entry's next deadline: expires while it holds its answer, forgotten after; the purge
          // walks it.
          "ALTER TABLE %s.inbox ALTER COLUMN reply DROP NOT NULL,"
              + " ADD COLUMN answered bigint NOT NULL DEFAULT 0,"
              + " ADD COLUMN forgotten bigint NULL,"
              + " ADD COLUMN record text NULL,"
              + " ADD COLUMN due bigint NULL",
          "UPDATE %s.inbox SET forgotten = expires, due = expires",
          "ALTER TABLE %s.inbox ALTER COLUMN forgotten SET NOT NULL, ALTER COLUMN due SET NOT NULL",
          "DROP INDEX %s.inbox_expires",
          "CREATE INDEX inbox_due ON %s.inbox (due)",
          // the trace context of the call that committed an entry, as a JSON object; NULL when it
          // was not traced, as every entry written before
          "ALTER TABLE %s.outbox ADD COLUMN trace jsonb NULL");

  /**
   * Creates the schema if needed and applies the steps it lacks.
   *
   * @return how many steps this call applied (0 when another process, or an earlier start, did)
   */
  static int apply(Connection c, Schema schema) throws SQLException {
    if (recorded(c, schema) == STEPS.size())
      return 0; // current: one query, no lock, no transaction
    int networkTimeout = c.getNetworkTimeout();
    c.setAutoCommit(false);
    boolean ended = false; // the transaction committed or rolled back
    try (Statement s = c.createStatement()) {
      // a step may rewrite a whole table, and the lock may wait for another process's steps: no
      // statement timeout, and no socket timeout that would take a long step for a lost connection
      s.execute("SET LOCAL statement_timeout = 0");
      c.setNetworkTimeout(Runnable::run, 0);
      try (PreparedStatement lock =
          c.prepareStatement("SELECT pg_advisory_xact_lock(?, hashtext(?))")) {
        lock.setInt(1, LOCK_SPACE);
        lock.setString(2, schema.name());
        lock.execute();
      }
      s.execute("CREATE SCHEMA IF NOT EXISTS " + schema.quoted());
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + schema.table("toa_migrations")
              + " (step int PRIMARY KEY, applied_at timestamptz NOT NULL)");
      int current = current(s, schema);
      if (current > STEPS.size()) {
        throw new SQLException(
            "The schema "
                + schema.name()
                + " is at migration step "
                + current
                + ", newer than this toa4j knows ("
                + STEPS.size()
                + "); run a newer toa4j");
      }
      for (int step = current + 1; step <= STEPS.size(); step++) {
        s.execute(String.format(STEPS.get(step - 1), schema.quoted()));
        s.execute(
            "INSERT INTO "
                + schema.table("toa_migrations")
                + " (step, applied_at) VALUES ("
                + step
                + ", now())");
      }
      c.commit();
      ended = true;
      return STEPS.size() - current;
    } catch (SQLException e) {
      c.rollback();
      ended = true;
      throw e;
    } finally {
      // Only once the transaction has ended: turning auto-commit on inside one commits it, and
      // after anything but a SQLException (an Error in the middle of a step) the connection is
      // discarded instead (sql.Connections), which ends the transaction on the server with nothing
      // of it kept — a step applied but not recorded would fail every later start.
      if (ended) {
        c.setNetworkTimeout(Runnable::run, networkTimeout);
        c.setAutoCommit(true);
      }
    }
  }

  /**
   * The last step recorded, read in one statement without the lock; -1 when the schema or its table
   * does not exist yet. A step is recorded in the transaction that applies it, so every step up to
   * the one read has landed; a migration under way elsewhere is not seen until it commits, and then
   * the lock is taken as before.
   */
  private static int recorded(Connection c, Schema schema) throws SQLException {
    try (Statement s = c.createStatement()) {
      return current(s, schema);
    } catch (SQLException e) {
      if (UNDEFINED_TABLE.equals(e.getSQLState()) || UNDEFINED_SCHEMA.equals(e.getSQLState()))
        return -1;
      throw e;
    }
  }

  private static int current(Statement s, Schema schema) throws SQLException {
    try (ResultSet r =
        s.executeQuery("SELECT coalesce(max(step), 0) FROM " + schema.table("toa_migrations"))) {
      r.next();
      return r.getInt(1);
    }
  }
}
