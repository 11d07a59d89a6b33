package example;

import io.toa4j.runtime.Toa;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Files;
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
 * the guide's flow ({@link ShopContract}) as on the embedded engine. The application is closed
 * after the class ({@link DirtiesContext}), then both are dropped: {@link DropEngines} is
 * registered before Spring's extension, so it runs after it.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
@ExtendWith(ShopOnServersTest.DropEngines.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class ShopOnServersTest implements ShopContract {
  private static volatile OwnEngines engines;

  @LocalServerPort int port;
  @Autowired Toa toa;

  @DynamicPropertySource
  static void engines(DynamicPropertyRegistry properties) throws IOException, InterruptedException {
    OwnEngines own = OwnEngines.create();
    engines = own;
    String state = Files.createTempDirectory("toa-shop").toString();
    properties.add("toa.state", () -> state);
    properties.add("toa.storage.engine", () -> "postgres");
    properties.add("toa.storage.options.url", own::storageUrl);
    properties.add("toa.bus.engine", () -> "rabbitmq");
    properties.add("toa.bus.options.url", own::busUrl);
  }

  @Override
  public Shop shop() {
    return new Shop(port, toa);
  }

  /** Drops the test's database and virtual host once the application is closed. */
  static final class DropEngines implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
      if (engines != null) engines.close();
    }
  }
}
