package io.toa4j.storage.mariadb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A component's tables, as numbered steps applied in order and recorded in its {@code _migrations}
 * table. A step, once released, never changes; a new need is a new step.
 *
 * <p>MariaDB commits each statement that changes a table's definition by itself, so steps cannot
 * share a transaction as they do on PostgreSQL. Instead every step can run again without harm
 * ({@code IF NOT EXISTS}), and is recorded right after it ran: a process stopped between a step and
 * its record runs the step again next time, to no effect. Processes starting at once migrate one
 * after another under a named lock ({@code GET_LOCK}) keyed by the tables' prefix: the first
 * applies the steps, the others find them recorded. A component already current costs one query:
 * its last recorded step is read first, without the lock.
 */
final class Migrations {
  /** MariaDB's error for a table that does not exist. */
  private static final int NO_SUCH_TABLE = 1146;

  /** How long a process waits for another's migration of the same component. */
  private static final int LOCK_SECONDS = 3_600;

  private Migrations() {}

  private static final String TABLE_OPTIONS =
      " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";

  /**
   * The steps, where {@code %1$s}, {@code %2$s} and {@code %3$s} stand for the quoted records,
   * outbox and inbox tables. Step n is at index n - 1.
   */
  static final List<String> STEPS =
      List.of(
          "CREATE TABLE IF NOT EXISTS %1$s ("
              + " id VARCHAR(512) NOT NULL PRIMARY KEY,"
              + " version BIGINT NOT NULL,"
              + " created BIGINT NOT NULL,"
              + " updated BIGINT NOT NULL,"
              + " state LONGTEXT NOT NULL,"
              + " INDEX records_created (created, id))"
              + TABLE_OPTIONS,
          // change NULL for an entry of tasks alone; tasks a JSON array, NULL for none; trace the
          // call's trace context as a JSON object, NULL when it was not traced. One index serves
          // the unpublished in id order (published IS NULL) and the purge of the published.
          "CREATE TABLE IF NOT EXISTS %2$s ("
              + " id VARCHAR(512) NOT NULL PRIMARY KEY,"
              + " created BIGINT NOT NULL,"
              + " `change` LONGTEXT NULL,"
              + " published BIGINT NULL,"
              + " claimed_until BIGINT NOT NULL DEFAULT 0,"
              + " tasks LONGTEXT NULL,"
              + " trace LONGTEXT NULL,"
              + " INDEX outbox_published (published, id))"
              + TABLE_OPTIONS,
          // An entry keeps its answer (reply) until it expires, then only the record that the call
          // was answered (when, for which request, which record) until it is forgotten. due is the
          // entry's next deadline: expires while it holds its answer, forgotten after; the purge
          // walks it.
          "CREATE TABLE IF NOT EXISTS %3$s ("
              + " identity VARCHAR(512) NOT NULL PRIMARY KEY,"
              + " reply LONGTEXT NULL,"
              + " expires BIGINT NOT NULL,"
              + " fingerprint TEXT NULL,"
              + " answered BIGINT NOT NULL DEFAULT 0,"
              + " forgotten BIGINT NOT NULL,"
              + " record TEXT NULL,"
              + " due BIGINT NOT NULL,"
              + " INDEX inbox_due (due))"
              + TABLE_OPTIONS);

  /**
   * Creates the tables if needed and applies the steps they lack.
   *
   * @return how many steps this call applied (0 when another process, or an earlier start, did)
   */
  static int apply(Connection c, Tables tables) throws SQLException {
    if (recorded(c, tables) == STEPS.size()) return 0; // current: one query, no lock
    int networkTimeout = c.getNetworkTimeout();
    String statementTime = statementTime(c);
    String lockName = "toa4j." + tables.prefix();
    // whether the connection answered (a result or a SQLException): after anything else, an Error
    // in the middle of the driver's exchange, it is left alone for the pool to discard, which also
    // releases the lock and the session's settings on the server
    boolean answered = false;
    try (Statement s = c.createStatement()) {
      // a step may rewrite a whole table, and the lock may wait for another process's steps: no
      // statement timeout, and no socket timeout that would take a long step for a lost connection
      s.execute("SET SESSION max_statement_time = 0");
      c.setNetworkTimeout(Runnable::run, 0);
      lock(c, lockName);
      try {
        s.execute(
            "CREATE TABLE IF NOT EXISTS "
                + tables.table("migrations")
                + " (step INT NOT NULL PRIMARY KEY, applied_at TIMESTAMP(6) NOT NULL)"
                + TABLE_OPTIONS);
        int current = current(s, tables);
        if (current > STEPS.size()) {
          throw new SQLException(
              "The tables "
                  + tables.prefix()
                  + "_* are at migration step "
                  + current
                  + ", newer than this toa4j knows ("
                  + STEPS.size()
                  + "); run a newer toa4j");
        }
        for (int step = current + 1; step <= STEPS.size(); step++) {
          s.execute(
              String.format(
                  STEPS.get(step - 1),
                  tables.table("records"),
                  tables.table("outbox"),
                  tables.table("inbox")));
          s.execute(
              "INSERT INTO "
                  + tables.table("migrations")
                  + " (step, applied_at) VALUES ("
                  + step
                  + ", NOW(6))");
        }
        answered = true;
        return STEPS.size() - current;
      } catch (SQLException e) {
        answered = true;
        throw e;
      } finally {
        if (answered) {
          try (PreparedStatement release = c.prepareStatement("DO RELEASE_LOCK(?)")) {
            release.setString(1, lockName);
            release.execute();
          }
        }
      }
    } catch (SQLException e) {
      answered = true;
      throw e;
    } finally {
      if (answered) {
        try (Statement s = c.createStatement()) {
          s.execute("SET SESSION max_statement_time = " + statementTime);
        }
        c.setNetworkTimeout(Runnable::run, networkTimeout);
      }
    }
  }

  /** The session's statement timeout, as a number of seconds, to set again after the steps. */
  private static String statementTime(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT @@session.max_statement_time")) {
      r.next();
      return r.getBigDecimal(1).toPlainString();
    }
  }

  private static void lock(Connection c, String name) throws SQLException {
    try (PreparedStatement lock = c.prepareStatement("SELECT GET_LOCK(?, ?)")) {
      lock.setString(1, name);
      lock.setInt(2, LOCK_SECONDS);
      try (ResultSet r = lock.executeQuery()) {
        r.next();
        if (r.getInt(1) != 1) {
          throw new SQLException(
              "Another process held the migration lock " + name + " for " + LOCK_SECONDS + " s");
        }
      }
    }
  }

  /**
   * The last step recorded, read in one statement without the lock; -1 when the table does not
   * exist yet. A step is recorded after it has landed, so every step up to the one read has.
   */
  private static int recorded(Connection c, Tables tables) throws SQLException {
    try (Statement s = c.createStatement()) {
      return current(s, tables);
    } catch (SQLException e) {
      if (e.getErrorCode() == NO_SUCH_TABLE) return -1;
      throw e;
    }
  }

  private static int current(Statement s, Tables tables) throws SQLException {
    try (ResultSet r =
        s.executeQuery("SELECT COALESCE(MAX(step), 0) FROM " + tables.table("migrations"))) {
      r.next();
      return r.getInt(1);
    }
  }
}
