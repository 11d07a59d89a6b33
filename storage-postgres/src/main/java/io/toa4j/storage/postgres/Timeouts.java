package io.toa4j.storage.postgres;

import com.zaxxer.hikari.HikariConfig;
import io.toa4j.sql.Options;

/**
 * How long the storage waits for PostgreSQL, and PostgreSQL for the storage, so that a connection
 * gone quiet (a dropped link: no FIN, no RST, packets simply stop) is given up by both ends within
 * seconds, and no long statement is taken for one.
 *
 * <p>The client: a round trip unanswered for the socket timeout, {@link #statementSeconds} + 2 (8 s
 * by default), fails as a lost connection (pgJDBC's {@code socketTimeout}: SQLState 08006, an
 * outage, and the pool's connections are replaced); the server cancels any statement at {@link
 * #statementSeconds} ({@code statement_timeout}, SQLState 57014), before that, so a statement that
 * only runs long ends with an error that says so and the connection lives on. Connecting gives up
 * after 5 s, checking an idle connection before it is handed out after 2 s.
 *
 * <p>The server, through settings made on each new connection: a session whose client went quiet is
 * ended, and its transaction rolled back and row locks freed, within 5 s — when idle, by TCP
 * keepalives (a probe after 2 s of silence, then every second, 3 unanswered: {@code
 * tcp_keepalives_*}); when its answer goes unacknowledged, by {@code tcp_user_timeout} (5 s); while
 * a statement runs or waits for a lock, by checking the socket every second ({@code
 * client_connection_check_interval}), which sees what the kernel found. A transaction left idle for
 * the socket timeout is ended too ({@code idle_in_transaction_session_timeout}): the storage never
 * waits between the statements of a transaction, and a middlebox that acknowledges for a dead
 * client hides it from TCP. Immutable.
 */
record Timeouts(int statementSeconds) {
  static final String OPTION = Options.STATEMENT_TIMEOUT;

  /**
   * Beyond the statement timeout, for the server's cancel to come back before the client gives up.
   */
  static final int MARGIN_SECONDS = 2;

  static final int CONNECT_SECONDS = 5;
  static final int VALIDATION_MILLIS = 2_000;
  static final int KEEPALIVE_IDLE_SECONDS = 2;
  static final int KEEPALIVE_INTERVAL_SECONDS = 1;
  static final int KEEPALIVE_COUNT = 3;
  static final int USER_TIMEOUT_MILLIS = 5_000;
  static final int CHECK_INTERVAL_MILLIS = 1_000;

  /**
   * The option's value, else the default; a clear error for anything but a number of seconds in
   * range.
   */
  static Timeouts from(String text) {
    return new Timeouts(Options.statementSeconds("postgres", text));
  }

  /** How long a round trip may go unanswered before the connection is taken as lost. */
  int socketSeconds() {
    return statementSeconds + MARGIN_SECONDS;
  }

  /**
   * Sets the driver's and the pool's timeouts, and the session settings run on each new connection.
   */
  void apply(HikariConfig config) {
    // as text: the driver reads its properties with getProperty, which sees only strings
    config.addDataSourceProperty("socketTimeout", String.valueOf(socketSeconds()));
    config.addDataSourceProperty("connectTimeout", String.valueOf(CONNECT_SECONDS));
    // the kernel's defaults (hours): only so that a read nothing else bounds ends at all
    config.addDataSourceProperty("tcpKeepAlive", "true");
    config.setValidationTimeout(VALIDATION_MILLIS);
    config.setConnectionInitSql(sessionSettings());
  }

  /**
   * The settings as one statement, run by HikariCP on each connection it opens: they hold for the
   * session whatever the URL's {@code options} say, where startup options would be replaced by
   * them. A setting the server does not know is left out ({@code client_connection_check_interval}
   * came with PostgreSQL 14), so an older server still connects, with the others.
   */
  String sessionSettings() {
    String[][] settings = {
      {"statement_timeout", statementSeconds + "s"},
      {"idle_in_transaction_session_timeout", socketSeconds() + "s"},
      {"tcp_keepalives_idle", String.valueOf(KEEPALIVE_IDLE_SECONDS)},
      {"tcp_keepalives_interval", String.valueOf(KEEPALIVE_INTERVAL_SECONDS)},
      {"tcp_keepalives_count", String.valueOf(KEEPALIVE_COUNT)},
      {"tcp_user_timeout", String.valueOf(USER_TIMEOUT_MILLIS)},
      {"client_connection_check_interval", String.valueOf(CHECK_INTERVAL_MILLIS)},
    };
    StringBuilder values = new StringBuilder();
    for (String[] setting : settings) {
      values
          .append(values.length() == 0 ? "" : ", ")
          .append("('")
          .append(setting[0])
          .append("', '")
          .append(setting[1])
          .append("')");
    }
    return "SELECT set_config(s.name, s.value, false) FROM (VALUES "
        + values
        + ") AS s (name, value)"
        + " JOIN pg_settings USING (name)";
  }
}
