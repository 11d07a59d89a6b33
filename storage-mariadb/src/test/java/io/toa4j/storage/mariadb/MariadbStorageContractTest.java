package io.toa4j.storage.mariadb;

import static io.toa4j.testkit.servers.Server.MARIADB;

import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.tck.storage.StorageContract;
import io.toa4j.testkit.servers.Needs;
import org.junit.jupiter.api.AfterEach;

/**
 * The storage contract, and with it the selection contract, against a real MariaDB, each test in a
 * database of its own.
 */
@Needs(MARIADB)
class MariadbStorageContractTest implements StorageContract {
  private final TestDatabase database = TestDatabase.create();

  @Override
  public Storage open() {
    return database.open();
  }

  @Override
  public long inboxSize(Store store) {
    return ((MariadbStore) store).inboxSize();
  }

  @AfterEach
  void dropDatabase() throws Exception {
    database.close();
  }
}
