package example;

import io.toa4j.runtime.Toa;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example unchanged but for its engines: PostgreSQL (a database of the test's own) and RabbitMQ
 * (a virtual host of its own), chosen by {@code toa.storage.*} and {@code toa.bus.*} properties;
 * the guide's flow ({@link ShopContract}) as on the embedded engine.
 * The application is closed after the class ({@link DirtiesContext}), then both are dropped: {@link
 * DropEngines} is registered before Spring's extension, so it runs after it.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
@ExtendWith(ShopOnServersTest.DropEngines.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class ShopOnServersTest implements ShopContract {
  static final String NAME = VirtualHosts.freshName();
  private static volatile boolean created;

  @LocalServerPort int port;
  @Autowired Toa toa;

  @DynamicPropertySource
  static void engines(DynamicPropertyRegistry properties) throws IOException, InterruptedException {
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url()); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + NAME);
    } catch (SQLException e) {
      throw new AssertionError("Cannot create a database on PostgreSQL at " + Server.POSTGRES.host() + ":" + Server.POSTGRES.port() + ": " + e, e);
    }
    created = true;
    VirtualHosts.create(NAME);
    String state = Files.createTempDirectory("toa-shop").toString();
    properties.add("toa.state", () -> state);
    properties.add("toa.storage.engine", () -> "postgres");
    properties.add("toa.storage.options.url", () -> Server.POSTGRES.url(NAME));
    properties.add("toa.bus.engine", () -> "rabbitmq");
    properties.add("toa.bus.options.url", () -> Server.RABBITMQ.url(NAME));
  }

  @Override
  public Shop shop() {
    return new Shop(port, toa);
  }

  /** Drops the test's database and virtual host once the application is closed. */
  static final class DropEngines implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      if (!created) return;
      try (Connection c = DriverManager.getConnection(Server.POSTGRES.url()); Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + NAME + " WITH (FORCE)");
      }
      VirtualHosts.delete(NAME);
    }
  }
}
