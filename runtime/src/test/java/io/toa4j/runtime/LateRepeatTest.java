package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Late repeats on the embedded engines: SQLite files and the embedded bus. */
class LateRepeatTest extends LateRepeatContract {
  @Override
  Options options() {
    return Options.defaults();
  }

  @Test
  void builder_setsTheContextsWindows_forOperationsThatStateNone() {
    try (Toa app =
        Toa.builder()
            .directory(Fixtures.ledger(directory, "true"))
            .inboxRetention(Duration.ofMinutes(10))
            .inboxRemember(Duration.ofHours(1))
            .options(Options.defaults().withClock(clock))
            .build()) {
      Request add = Request.of(ACCOUNT, Map.of("amount", 1, "mode", "ok"));
      app.call("test.ledger.add", add, "call-1");
      clock.advance(Duration.ofMinutes(11));
      assertThatThrownBy(() -> app.call("test.ledger.add", add, "call-1"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ALREADY_ANSWERED));
      clock.advance(Duration.ofMinutes(50));
      app.call("test.ledger.add", add, "call-1");
      assertThat(TransitionTest.output(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", 2L);
    }
    assertThatThrownBy(() -> Toa.builder().inboxRemember(Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an inbox remember is 600 seconds or more; got PT5M");
  }

  @Override
  long[] inbox() throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve(".toa/storage/test.ledger.db"));
        ResultSet r =
            c.createStatement().executeQuery("SELECT count(*), count(reply) FROM inbox")) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }
}
