package io.toa4j.storage.mariadb;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;

/**
 * A database of the tests' own on the real MariaDB ({@code TOA_MARIADB_URL}, else the local
 * default), made fresh under a unique name and dropped by {@link #close()}. The tests that use it
 * are marked {@code @Needs(MARIADB)}: not run when it does not answer, failing instead with {@code
 * TOA_REQUIRE_SERVERS} set. When it answers and cannot be used, they fail, saying what was tried
 * and how to start it.
 */
final class TestDatabase implements AutoCloseable {
  private final String name;

  private TestDatabase(String name) {
    this.name = name;
  }

  /** Creates a database no other test uses. */
  static TestDatabase create() {
    TestDatabase database =
        new TestDatabase("toa_t" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    try (Connection c = connect(Server.MARIADB.url());
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE DATABASE `" + database.name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    } catch (SQLException e) {
      throw unreachable(e);
    }
    return database;
  }

  /** The JDBC URL of this database, the login of the tests' URL kept. */
  String url() {
    return Server.MARIADB.url(name);
  }

  String name() {
    return name;
  }

  /** Opens the storage on this database as a context would, through ServiceLoader. */
  Storage open() {
    return open(Map.of());
  }

  Storage open(Map<String, String> options) {
    Map<String, String> withUrl = new HashMap<>(options);
    withUrl.putIfAbsent("url", url());
    try {
      return provider().open(new StorageSettings(Path.of(".toa"), withUrl));
    } catch (IllegalStateException e) {
      throw unreachable(e);
    }
  }

  static StorageProvider provider() {
    for (StorageProvider p : ServiceLoader.load(StorageProvider.class)) {
      if (p.name().equals("mariadb")) return p;
    }
    throw new AssertionError("the mariadb provider is not registered with ServiceLoader");
  }

  /** A plain connection to this database beside the storage, for looking at its tables. */
  Connection connect() {
    try {
      return connect(url());
    } catch (SQLException e) {
      throw unreachable(e);
    }
  }

  private static Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** Drops the database and everything in it. */
  @Override
  public void close() throws SQLException {
    try (Connection c = connect(Server.MARIADB.url());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS `" + name + "`");
    }
  }

  private static AssertionError unreachable(Exception e) {
    return new AssertionError(
        "The MariaDB tests need a server at "
            + Server.MARIADB.host()
            + ":"
            + Server.MARIADB.port()
            + " and could not use it: "
            + e.getMessage()
            + "\nStart one with a user root without a password (on Debian: apt-get install mariadb-server;"
            + " start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd), or point TOA_MARIADB_URL"
            + " at another, such as jdbc:mariadb://host:3306/db?user=me&password=...",
        e);
  }
}
