package io.toa4j.storage.mariadb;

import io.toa4j.sql.Connections;
import io.toa4j.sql.Failure;
import java.sql.SQLException;

/**
 * Turns driver errors into failures an operator can act on, with the password masked; tells the
 * pool when one says the server was out of reach.
 */
final class Failures {
  /** HikariCP's message for a call on a connection it has closed, having found it broken. */
  private static final String CLOSED_BY_POOL = "Connection is closed";

  /** MariaDB's error for a key already taken. */
  static final int DUPLICATE_KEY = 1062;

  /** MariaDB's error for a deadlock, the transaction rolled back (SQLState 40001). */
  private static final int DEADLOCK = 1213;

  /** The server is shutting down (SQLState 08S01). */
  private static final int SHUTDOWN = 1053;

  /**
   * The connection was killed, as a shutdown does to every session (SQLState 70100, shared with a
   * stopped statement).
   */
  private static final int CONNECTION_KILLED = 1927;

  private final Server server;
  private final Runnable lost;

  /** For failures before a pool exists. */
  Failures(Server server) {
    this(server, () -> {});
  }

  /**
   * @param lost run on each failure that says the server is out of reach: the pool's other
   *     connections were made before it and are most likely cut too
   */
  Failures(Server server, Runnable lost) {
    this.server = server;
    this.lost = lost;
  }

  /** Whether the error is InnoDB giving up one of two racing transactions. */
  static boolean isLostRace(SQLException e) {
    return e.getErrorCode() == DEADLOCK || "40001".equals(e.getSQLState());
  }

  /** Whether the error is a key already taken. */
  static boolean isDuplicateKey(SQLException e) {
    return e.getErrorCode() == DUPLICATE_KEY;
  }

  /**
   * Whether the error says the server is out of reach for now: the connection could not be made or
   * was lost (SQLState class 08, a refused or unroutable connection), the server is shutting down
   * (1053) or ended the session (1927, what a shutdown does to every session). A connection
   * HikariCP closed because it was lost fails what comes next, such as the rollback after the
   * statement that found it lost, with a SQLState of none: that is the same outage. So is a pool
   * whose every connection stayed in use for its whole timeout with none coming back ({@link
   * Connections.Unanswered}): the server answers nothing.
   */
  static boolean isUnreachable(Throwable t) {
    for (Throwable at = t; at != null; at = at.getCause()) {
      if (at instanceof Connections.Unanswered) return true;
      if (at instanceof SQLException sql
          && sql.getSQLState() == null
          && CLOSED_BY_POOL.equals(sql.getMessage())) return true;
      if (at instanceof SQLException sql
          && (sql.getErrorCode() == SHUTDOWN || sql.getErrorCode() == CONNECTION_KILLED))
        return true;
      if (at instanceof SQLException sql
          && sql.getSQLState() != null
          && !sql.getSQLState().isEmpty()) {
        return sql.getSQLState().startsWith("08");
      }
      if (at instanceof java.net.ConnectException || at instanceof java.net.NoRouteToHostException)
        return true;
    }
    return false;
  }

  IllegalStateException of(String what, Exception e) {
    boolean unreachable = isUnreachable(e);
    if (unreachable) lost.run();
    return Failure.of("MariaDB at " + server, what, e, server::mask, unreachable);
  }
}
