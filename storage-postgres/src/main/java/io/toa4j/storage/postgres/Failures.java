package io.toa4j.storage.postgres;

import java.sql.SQLException;

/** Turns driver errors into failures an operator can act on, with the password masked. */
final class Failures {
  private final Server server;

  Failures(Server server) {
    this.server = server;
  }

  /** Whether the error is PostgreSQL giving up one of two racing transactions. */
  static boolean isLostRace(SQLException e) {
    String state = e.getSQLState();
    return "40001".equals(state) || "40P01".equals(state);
  }

  private boolean mentionsSecrets(Throwable t) {
    for (Throwable at = t; at != null; at = at.getCause()) {
      String text = String.valueOf(at.getMessage());
      if (!server.mask(text).equals(text)) return true;
    }
    return false;
  }

  IllegalStateException of(String what, Exception e) {
    String state = e instanceof SQLException sql && sql.getSQLState() != null ? " [SQLState " + sql.getSQLState() + "]" : "";
    String message = server.mask(e.getMessage());
    IllegalStateException failure =
        new IllegalStateException("PostgreSQL at " + server + " could not " + what + ": " + message + state);
    // The cause goes along only when its own text gives nothing away.
    if (message.equals(e.getMessage()) && !mentionsSecrets(e.getCause())) failure.initCause(e);
    return failure;
  }
}
