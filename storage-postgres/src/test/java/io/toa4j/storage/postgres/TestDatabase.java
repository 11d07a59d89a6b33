package io.toa4j.storage.postgres;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.UUID;

/**
 * The real PostgreSQL the tests run against: {@code TOA_POSTGRES_URL}, else the local default. The
 * tests that use it are marked {@code @Needs(POSTGRES)}: not run when it does not answer. When it
 * answers and cannot be used, they fail, saying what was tried and how to start it.
 */
final class TestDatabase {
  static final Server SERVER = Server.from(Map.of(), System.getenv());

  private TestDatabase() {}

  /** Opens the storage as a context would, through ServiceLoader and default settings. */
  static Storage open() {
    return open(Map.of());
  }

  static Storage open(Map<String, String> options) {
    try {
      return provider().open(new StorageSettings(Path.of(".toa"), options));
    } catch (IllegalStateException e) {
      throw unreachable(e);
    }
  }

  static StorageProvider provider() {
    for (StorageProvider p : ServiceLoader.load(StorageProvider.class)) {
      if (p.name().equals("postgres")) return p;
    }
    throw new AssertionError("the postgres provider is not registered with ServiceLoader");
  }

  /** A namespace no other test uses, so its components get schemas of their own. */
  static String freshNamespace() {
    return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** A plain connection beside the storage, for looking at and cleaning up schemas. */
  static Connection connect() {
    Properties login = new Properties();
    SERVER.user().ifPresent(u -> login.setProperty("user", u));
    SERVER.password().ifPresent(p -> login.setProperty("password", p));
    try {
      return DriverManager.getConnection(SERVER.url(), login);
    } catch (SQLException e) {
      throw unreachable(e);
    }
  }

  /** Drops every schema of the namespace's components. */
  static void drop(String namespace) throws SQLException {
    try (Connection c = connect()) {
      List<String> schemas = new ArrayList<>();
      try (PreparedStatement s =
          c.prepareStatement("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ?)")) {
        s.setString(1, namespace + "_");
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) schemas.add(r.getString(1));
        }
      }
      try (Statement s = c.createStatement()) {
        for (String schema : schemas) s.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
      }
    }
  }

  private static AssertionError unreachable(Exception e) {
    return new AssertionError(
        "The PostgreSQL tests need a server at "
            + SERVER
            + " and could not use it: "
            + e.getMessage()
            + "\nStart one with trust authentication and a database named test (on Debian: apt-get install postgresql;"
            + " pg_ctlcluster <version> main start; su postgres -c 'createdb test'), or point "
            + Server.ENVIRONMENT
            + " at another, such as jdbc:postgresql://host:5432/db?user=me",
        e);
  }
}
