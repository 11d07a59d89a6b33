package io.toa4j.storage.postgres;

import static io.toa4j.testkit.servers.Server.POSTGRES;

import io.toa4j.spi.Storage;
import io.toa4j.tck.storage.StorageContract;
import io.toa4j.testkit.servers.Needs;
import org.junit.jupiter.api.AfterEach;

/** The storage contract against a real PostgreSQL, each test in schemas of its own. */
@Needs(POSTGRES)
class PostgresStorageContractTest implements StorageContract {
  private final String namespace = TestDatabase.freshNamespace();

  @Override
  public Storage open() {
    return TestDatabase.open();
  }

  @Override
  public long inboxSize(io.toa4j.spi.Store store) {
    return ((PostgresStore) store).inboxSize();
  }

  @Override
  public String component(String name) {
    return namespace + "." + name;
  }

  @AfterEach
  void dropSchemas() throws Exception {
    TestDatabase.drop(namespace);
  }
}
