package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A PostgreSQL database and a RabbitMQ virtual host of one test's own, on the servers the tests use
 * ({@link Server#url(String)}: {@code TOA_POSTGRES_URL} and {@code TOA_RABBITMQ_URL}, else the
 * local defaults), and the TOA_* settings that point an unchanged context at them. A JUnit
 * extension ({@code @RegisterExtension final DistributedEngines engines = new
 * DistributedEngines();}): made before each test, before its own {@code @BeforeEach} methods, and
 * dropped after it, after its {@code @AfterEach} ones. The virtual host is made with rabbitmqctl:
 * the tests that use this need {@link Server#RABBITMQ_CONTROL}.
 */
final class DistributedEngines implements BeforeEachCallback, AfterEachCallback {
  /** The database's and the virtual host's name, during a test. */
  String name;

  /** The TOA_* settings that point a context at them, during a test. */
  Map<String, String> environment;

  private OwnEngines own;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException, InterruptedException {
    own = OwnEngines.create();
    name = own.name();
    environment = environment(own.storageUrl(), own.busUrl());
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (own != null) own.close();
    own = null;
  }

  /**
   * The TOA_* settings that choose PostgreSQL and RabbitMQ at these URLs, such as this test's
   * through proxies.
   */
  static Map<String, String> environment(String storageUrl, String busUrl) {
    return Map.of(
        "TOA_STORAGE",
        "postgres",
        "TOA_STORAGE_URL",
        storageUrl,
        "TOA_BUS",
        "rabbitmq",
        "TOA_BUS_URL",
        busUrl);
  }

  /** A connection to the test's database, beside the application's. */
  Connection database() throws SQLException {
    return DriverManager.getConnection(Server.POSTGRES.url(name));
  }

  /** A second RabbitMQ bus on the test's virtual host, beside the application's. */
  Bus secondBus(Path directory) {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("rabbitmq")) {
        return p.open(
            new BusSettings(
                directory.resolve(".toa"),
                Map.of("url", environment.get("TOA_BUS_URL")),
                Clock.systemUTC()));
      }
    }
    throw new AssertionError("no rabbitmq bus on the class path");
  }
}
