package io.toa4j.storage.postgres;

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

  /** Whether the error is PostgreSQL giving up one of two racing transactions. */
  static boolean isLostRace(SQLException e) {
    String state = e.getSQLState();
    return "40001".equals(state) || "40P01".equals(state);
  }

  /**
   * Whether the error says the server is out of reach for now: the connection could not be made or
   * was lost (SQLState class 08), or the server is starting or stopping (57P01 to 57P03). A
   * connection HikariCP closed because it was lost (class 08) fails what comes next, such as the
   * rollback or the commit after the statement that found it lost, with a SQLState of none: that is
   * the same outage. So is a pool whose every connection stayed in use for its whole timeout with
   * none coming back ({@link Connections.Unanswered}): the server answers nothing.
   */
  static boolean isUnreachable(Throwable t) {
    for (Throwable at = t; at != null; at = at.getCause()) {
      if (at instanceof Connections.Unanswered) return true;
      if (at instanceof SQLException sql
          && sql.getSQLState() == null
          && CLOSED_BY_POOL.equals(sql.getMessage())) return true;
      if (at instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        return state.startsWith("08")
            || state.equals("57P01")
            || state.equals("57P02")
            || state.equals("57P03");
      }
      if (at instanceof java.net.ConnectException || at instanceof java.net.NoRouteToHostException)
        return true;
    }
    return false;
  }

  IllegalStateException of(String what, Exception e) {
    boolean unreachable = isUnreachable(e);
    if (unreachable) lost.run();
    return Failure.of("PostgreSQL at " + server, what, e, server::mask, unreachable);
  }
}
