package io.toa4j.tck.runs;

import io.toa4j.runtime.Options;
import io.toa4j.tck.engine.BackpressureContract;
import io.toa4j.tck.engine.LateRepeatContract;
import io.toa4j.tck.engine.PublishingTogetherContract;
import io.toa4j.tck.engine.RedeliveryContract;
import io.toa4j.tck.engine.TaskOutboxContract;
import io.toa4j.tck.engine.TurnsContract;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/** The engine kit's suites on the embedded engines: SQLite files and the embedded bus. */
class EmbeddedEnginesTest {
  @Nested
  class Turns extends TurnsContract {
    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(Map.of());
    }
  }

  @Nested
  class LateRepeat extends LateRepeatContract {
    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(Map.of());
    }

    @Override
    protected long[] inbox() throws Exception {
      try (Connection c =
              DriverManager.getConnection(
                  "jdbc:sqlite:" + directory.resolve(".toa/storage/test.ledger.db"));
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*), count(reply) FROM inbox")) {
        r.next();
        return new long[] {r.getLong(1), r.getLong(2)};
      }
    }
  }

  @Nested
  class Redelivery extends RedeliveryContract {
    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(Map.of());
    }
  }

  @Nested
  class TaskOutbox extends TaskOutboxContract {
    @Override
    protected Options options() {
      return Options.defaults().withEnvironment(Map.of());
    }
  }

  @Nested
  class PublishingTogether extends PublishingTogetherContract {
    @Override
    protected Map<String, String> storage() {
      return Map.of();
    }

    @Override
    protected String bus() {
      return "embedded";
    }

    @Override
    protected Map<String, String> busOptions() {
      return Map.of();
    }
  }

  @Nested
  class Backpressure extends BackpressureContract {
    @Override
    protected Map<String, String> storage() {
      return Map.of();
    }

    @Override
    protected String bus() {
      return "embedded";
    }

    @Override
    protected Map<String, String> busOptions() {
      return Map.of();
    }
  }
}
