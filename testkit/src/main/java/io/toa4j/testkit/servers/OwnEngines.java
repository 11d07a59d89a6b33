package io.toa4j.testkit.servers;

import io.toa4j.testkit.rabbitmq.VirtualHosts;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A PostgreSQL database and a RabbitMQ virtual host of one test's own, on the servers the tests use
 * ({@link Server#url(String)}), so tests that share the servers never meet; {@link #close()} drops
 * both. The virtual host is made with rabbitmqctl, so a test that uses this needs {@link
 * Server#POSTGRES}, {@link Server#RABBITMQ} and {@link Server#RABBITMQ_CONTROL}. Needs the
 * PostgreSQL driver on the test's class path.
 */
public final class OwnEngines implements AutoCloseable {
  private final String name;

  private OwnEngines(String name) {
    this.name = name;
  }

  /** Creates both, under one fresh name. */
  public static OwnEngines create() throws IOException, InterruptedException {
    OwnEngines engines = new OwnEngines(VirtualHosts.freshName());
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url());
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + engines.name);
    } catch (SQLException e) {
      throw new AssertionError(
          "Cannot create a database on PostgreSQL at "
              + Server.POSTGRES.host()
              + ":"
              + Server.POSTGRES.port()
              + " (start it with pg_ctlcluster ... main start, or set TOA_POSTGRES_URL): "
              + e.getMessage(),
          e);
    }
    VirtualHosts.create(engines.name);
    return engines;
  }

  /** The name of the database and of the virtual host. */
  public String name() {
    return name;
  }

  /** The JDBC URL of the database. */
  public String storageUrl() {
    return Server.POSTGRES.url(name);
  }

  /** The AMQP URL of the virtual host. */
  public String busUrl() {
    return Server.RABBITMQ.url(name);
  }

  @Override
  public void close() throws Exception {
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    VirtualHosts.delete(name);
  }
}
