package io.toa4j.storage.mariadb;

import com.zaxxer.hikari.HikariConfig;
import io.toa4j.sql.Options;

/**
 * How long the storage waits for MariaDB, and MariaDB for the storage, so that a connection gone
 * quiet (a dropped link: no FIN, no RST, packets simply stop) is given up within seconds, and no
 * long statement is taken for one.
 *
 * <p>The client: a round trip unanswered for the socket timeout, {@link #statementSeconds} + 2 (8 s
 * by default), fails as a lost connection (the driver's {@code socketTimeout}: SQLState class 08,
 * an outage, and the pool's connections are replaced); the server stops any statement at {@link
 * #statementSeconds} before that ({@code max_statement_time}, error 1969), and a wait for a row
 * lock too ({@code innodb_lock_wait_timeout}, error 1205), so a statement that only runs long ends
 * with an error that says so and the connection lives on. Connecting gives up after 5 s, checking
 * an idle connection before it is handed out after 2 s. The socket's TCP keepalives probe after 2 s
 * of silence, then every second, 3 unanswered.
 *
 * <p>The server, through settings made on each new connection: a transaction left idle for the
 * socket timeout is rolled back and its session ended ({@code idle_transaction_timeout}), so the
 * row locks of a client cut off in a transaction are freed within 8 s; the storage never waits
 * between the statements of a transaction. MariaDB's own TCP keepalives ({@code tcp_keepalive_*})
 * are server-wide settings, left to its operator. Immutable.
 */
record Timeouts(int statementSeconds) {
  /**
   * Beyond the statement timeout, for the server's stop to come back before the client gives up.
   */
  static final int MARGIN_SECONDS = 2;

  static final int CONNECT_SECONDS = 5;
  static final int VALIDATION_MILLIS = 2_000;
  static final int KEEPALIVE_IDLE_SECONDS = 2;
  static final int KEEPALIVE_INTERVAL_SECONDS = 1;
  static final int KEEPALIVE_COUNT = 3;

  /**
   * The option's value, else the default; a clear error for anything but a number of seconds in
   * range.
   */
  static Timeouts from(String text) {
    return new Timeouts(Options.statementSeconds("mariadb", text));
  }

  /** How long a round trip may go unanswered before the connection is taken as lost. */
  int socketSeconds() {
    return statementSeconds + MARGIN_SECONDS;
  }

  /**
   * Sets the driver's and the pool's timeouts, and the session settings run on each new connection.
   */
  void apply(HikariConfig config) {
    config.addDataSourceProperty("socketTimeout", String.valueOf(socketSeconds() * 1000));
    config.addDataSourceProperty("connectTimeout", String.valueOf(CONNECT_SECONDS * 1000));
    config.addDataSourceProperty("tcpKeepAlive", "true");
    config.addDataSourceProperty("tcpKeepIdle", String.valueOf(KEEPALIVE_IDLE_SECONDS));
    config.addDataSourceProperty("tcpKeepInterval", String.valueOf(KEEPALIVE_INTERVAL_SECONDS));
    config.addDataSourceProperty("tcpKeepCount", String.valueOf(KEEPALIVE_COUNT));
    config.setValidationTimeout(VALIDATION_MILLIS);
    config.setConnectionInitSql(sessionSettings());
  }

  /** The settings as one statement, run by HikariCP on each connection it opens. */
  String sessionSettings() {
    return "SET SESSION max_statement_time = "
        + statementSeconds
        + ", innodb_lock_wait_timeout = "
        + statementSeconds
        + ", idle_transaction_timeout = "
        + socketSeconds()
        + ", sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES')";
  }
}
