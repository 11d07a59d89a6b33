package io.toa4j.tck.runs;

import io.toa4j.tck.engine.EngineKit;
import io.toa4j.tck.engine.Engines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/** The engine kit's suites on the embedded engines: SQLite files and the embedded bus. */
class EmbeddedEnginesTest extends EngineKit {
  @Override
  protected Engines engines() {
    return Engines.embedded();
  }

  @Override
  protected long[] ledgerInbox(Path directory) throws Exception {
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
