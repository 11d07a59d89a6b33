package io.toa4j.testkit.servers;

import io.toa4j.testkit.rabbitmq.VirtualHosts;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A database (PostgreSQL's or MariaDB's) and a RabbitMQ virtual host of one test's own, on the
 * servers the tests use ({@link Server#url(String)}), so tests that share the servers never meet;
 * {@link #close()} drops both. The virtual host comes from {@link VirtualHosts#take()}, so a test
 * that uses this needs the database's server, {@link Server#RABBITMQ} and {@link
 * Server#RABBITMQ_CONTROL}. Needs the database's driver on the test's class path.
 */
public final class OwnEngines implements AutoCloseable {
  private final String name;
  private final Server database;

  private OwnEngines(String name, Server database) {
    this.name = name;
    this.database = database;
  }

  /** Creates both, under one fresh name, the database on PostgreSQL. */
  public static OwnEngines create() throws IOException, InterruptedException {
    return create(Server.POSTGRES);
  }

  /**
   * Creates both, under one fresh name, the database on {@link Server#POSTGRES} or {@link
   * Server#MARIADB}.
   */
  public static OwnEngines create(Server database) throws IOException, InterruptedException {
    if (database != Server.POSTGRES && database != Server.MARIADB) {
      throw new IllegalArgumentException(database + " holds no databases");
    }
    OwnEngines engines = new OwnEngines(VirtualHosts.take(), database);
    String create =
        database == Server.MARIADB
            ? "CREATE DATABASE `" + engines.name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
            : "CREATE DATABASE " + engines.name;
    try (Connection c = DriverManager.getConnection(database.url());
        Statement s = c.createStatement()) {
      s.execute(create);
    } catch (SQLException e) {
      VirtualHosts.release(engines.name);
      throw new AssertionError(
          "Cannot create a database on "
              + database.title()
              + " at "
              + database.host()
              + ":"
              + database.port()
              + " ("
              + database.hint()
              + "): "
              + e.getMessage(),
          e);
    }
    return engines;
  }

  /** The name of the database and of the virtual host. */
  public String name() {
    return name;
  }

  /** The JDBC URL of the database. */
  public String storageUrl() {
    return database.url(name);
  }

  /** The AMQP URL of the virtual host. */
  public String busUrl() {
    return Server.RABBITMQ.url(name);
  }

  @Override
  public void close() throws Exception {
    try (Connection c = DriverManager.getConnection(database.url());
        Statement s = c.createStatement()) {
      s.execute(
          database == Server.MARIADB
              ? "DROP DATABASE IF EXISTS `" + name + "`"
              : "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    VirtualHosts.release(name);
  }
}
