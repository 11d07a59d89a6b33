package io.toa4j.runtime;

import io.toa4j.testkit.rabbitmq.VirtualHosts;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * A PostgreSQL database and a RabbitMQ virtual host of one test's own, and the TOA_* settings that
 * point an unchanged context at them; {@link #close()} drops both.
 */
final class DistributedEngines implements AutoCloseable {
  static final String ADMIN = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  final String name;
  final Map<String, String> environment;

  private DistributedEngines(String name) {
    this.name = name;
    this.environment = Map.of(
        "TOA_STORAGE", "postgres",
        "TOA_STORAGE_URL", databaseUrl(name),
        "TOA_BUS", "rabbitmq",
        "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:5672/" + name);
  }

  static DistributedEngines create() throws IOException, InterruptedException {
    DistributedEngines engines = new DistributedEngines(VirtualHosts.freshName());
    try (Connection c = DriverManager.getConnection(ADMIN); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + engines.name);
    } catch (SQLException e) {
      throw new AssertionError("PostgreSQL does not answer at " + ADMIN + " (start it with pg_ctlcluster ... main start): " + e.getMessage(), e);
    }
    VirtualHosts.create(engines.name);
    return engines;
  }

  static String databaseUrl(String name) {
    return "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres";
  }

  @Override
  public void close() throws Exception {
    try (Connection c = DriverManager.getConnection(ADMIN); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    VirtualHosts.delete(name);
  }
}
