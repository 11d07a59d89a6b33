package io.toa4j.storage.postgres;

import static io.toa4j.testkit.servers.Server.POSTGRES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.toa4j.testkit.servers.Needs;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The timeouts each connection of the pool carries, on the real server. */
@Needs(POSTGRES)
class TimeoutsTest {
  @Test
  void pooledConnection_carriesTheSocketTimeoutAndTheServersDeadPeerSettings() throws Exception {
    try (PostgresStorage storage = (PostgresStorage) TestDatabase.open()) {
      storage.withConnection(
          c -> {
            assertThat(c.getNetworkTimeout()).as("the socket timeout, ms").isEqualTo(8_000);
            assertThat(show(c, "statement_timeout")).isEqualTo("6s");
            assertThat(show(c, "idle_in_transaction_session_timeout")).isEqualTo("8s");
            assertThat(show(c, "tcp_keepalives_idle")).isEqualTo("2");
            assertThat(show(c, "tcp_keepalives_interval")).isEqualTo("1");
            assertThat(show(c, "tcp_keepalives_count")).isEqualTo("3");
            assertThat(show(c, "tcp_user_timeout")).isEqualTo("5000");
            assertThat(show(c, "client_connection_check_interval")).isEqualTo("1s");
            return null;
          });
    }
  }

  @Test
  void statementLongerThanTheStatementTimeout_isCancelledByTheServer_andTheConnectionLivesOn()
      throws Exception {
    try (PostgresStorage storage =
        (PostgresStorage) TestDatabase.open(Map.of(Timeouts.OPTION, "1"))) {
      storage.withConnection(
          c -> {
            try (Statement s = c.createStatement()) {
              SQLException cancelled =
                  catchThrowableOfType(SQLException.class, () -> s.execute("SELECT pg_sleep(5)"));

              assertThat(cancelled.getSQLState())
                  .as("query_canceled, not a lost connection: %s", cancelled)
                  .isEqualTo("57014");
              assertThat(Failures.isUnreachable(cancelled)).isFalse();
              assertThat(c.isClosed()).isFalse();
              assertThat(show(c, "statement_timeout"))
                  .as("the same connection answers")
                  .isEqualTo("1s");
            }
            return null;
          });
    }
  }

  private static String show(Connection c, String setting) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW " + setting)) {
      r.next();
      return r.getString(1);
    }
  }
}
