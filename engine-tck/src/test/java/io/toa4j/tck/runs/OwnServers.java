package io.toa4j.tck.runs;

import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A database (PostgreSQL's or MariaDB's) and a RabbitMQ virtual host of one test's own: made before
 * each test and dropped after it ({@code @RegisterExtension}).
 */
final class OwnServers implements BeforeEachCallback, AfterEachCallback {
  private final Server database;
  private final String storage;
  private OwnEngines own;

  private OwnServers(Server database, String storage) {
    this.database = database;
    this.storage = storage;
  }

  /** A PostgreSQL database, for the {@code postgres} storage. */
  static OwnServers postgres() {
    return new OwnServers(Server.POSTGRES, "postgres");
  }

  /** A MariaDB database, for the {@code mariadb} storage. */
  static OwnServers mariadb() {
    return new OwnServers(Server.MARIADB, "mariadb");
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException, InterruptedException {
    own = OwnEngines.create(database);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (own != null) own.close();
    own = null;
  }

  /** The name of the storage's provider: {@code postgres} or {@code mariadb}. */
  String storageName() {
    return storage;
  }

  /** The JDBC URL of the test's database. */
  String storageUrl() {
    return own.storageUrl();
  }

  /** The AMQP URL of the test's virtual host. */
  String busUrl() {
    return own.busUrl();
  }

  /** A connection to the test's database, beside the context's. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(own.storageUrl());
  }

  /** The two counts of a query that answers them, on the test's database. */
  long[] counts(String query) throws SQLException {
    try (Connection c = connect();
        var s = c.createStatement();
        var r = s.executeQuery(query)) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }
}
