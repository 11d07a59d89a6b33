package io.toa4j.sql;

import io.toa4j.spi.UnreachableException;
import java.sql.SQLException;
import java.util.function.UnaryOperator;

/**
 * A driver's error as a server storage reports it: what could not be done, where, with the password
 * masked, as an {@link UnreachableException} when the server was out of reach (the runtime may wait
 * for it) and an {@link IllegalStateException} otherwise. Stateless.
 */
public final class Failure {
  private Failure() {}

  /**
   * @param server the server for messages, such as {@code PostgreSQL at jdbc:...}, already masked
   * @param what what could not be done, such as {@code read record 7}
   * @param mask hides the password in a text
   * @param unreachable whether the error says the server is out of reach
   */
  public static IllegalStateException of(
      String server, String what, Exception e, UnaryOperator<String> mask, boolean unreachable) {
    String state =
        e instanceof SQLException sql && sql.getSQLState() != null
            ? " [SQLState " + sql.getSQLState() + "]"
            : "";
    String message = mask.apply(e.getMessage());
    String text = server + " could not " + what + ": " + message + state;
    IllegalStateException failure =
        unreachable ? new UnreachableException(text) : new IllegalStateException(text);
    // The cause goes along only when its own text gives nothing away.
    if (message.equals(e.getMessage()) && !mentionsSecrets(e.getCause(), mask))
      failure.initCause(e);
    return failure;
  }

  private static boolean mentionsSecrets(Throwable t, UnaryOperator<String> mask) {
    for (Throwable at = t; at != null; at = at.getCause()) {
      String text = String.valueOf(at.getMessage());
      if (!mask.apply(text).equals(text)) return true;
    }
    return false;
  }
}
