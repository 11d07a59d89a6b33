package io.toa4j.storage.mariadb;

import static io.toa4j.testkit.servers.Server.MARIADB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.UnreachableException;
import io.toa4j.spi.Write;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.servers.Needs;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What is MariaDB's own beyond the contract: its tables, migrations, timeouts and outages, on a
 * real server.
 */
@Needs(MARIADB)
class MariadbStorageTest {
  private static final String A = "0000000000000000000000000000000a";
  private final TestDatabase database = TestDatabase.create();

  @AfterEach
  void dropDatabase() throws Exception {
    database.close();
  }

  @Test
  void store_createsTheComponentsTablesInTheUrlsDatabase_innodbUtf8mb4Bin_everyStepRecorded()
      throws Exception {
    try (Storage storage = database.open()) {
      storage.store("billing.wallets");
    }
    assertThat(
            rows(
                "SELECT table_name, engine, table_collation FROM information_schema.tables WHERE table_schema = '"
                    + database.name()
                    + "' ORDER BY table_name"))
        .containsExactly(
            "billing_wallets_inbox InnoDB utf8mb4_bin",
            "billing_wallets_migrations InnoDB utf8mb4_bin",
            "billing_wallets_outbox InnoDB utf8mb4_bin",
            "billing_wallets_records InnoDB utf8mb4_bin");
    assertThat(rows("SELECT step FROM billing_wallets_migrations ORDER BY step"))
        .containsExactly("1", "2", "3");
  }

  @Test
  void store_twoStoragesMigratingAtOnce_bothWork_andEachStepIsRecordedOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Storage one = database.open();
        Storage two = database.open()) {
      List<Future<Store>> stores = new ArrayList<>();
      for (Storage storage : List.of(one, two))
        stores.add(threads.submit(() -> storage.store("billing.wallets")));
      for (Future<Store> store : stores)
        assertThat(store.get(1, TimeUnit.MINUTES).read(A)).isEmpty();
    } finally {
      threads.shutdownNow();
    }
    assertThat(rows("SELECT COUNT(*), COUNT(DISTINCT step) FROM billing_wallets_migrations"))
        .containsExactly("3 3");
  }

  @Test
  void store_aStepRunAgainAfterAStopBeforeItsRecord_doesNoHarm() throws Exception {
    try (Storage storage = database.open()) {
      storage
          .store("billing.wallets")
          .commit(new Write(0, new StoredRecord(A, 1, 1, 1, new Json("{}"))));
    }
    execute("DELETE FROM billing_wallets_migrations WHERE step > 1");
    try (Storage storage = database.open()) {
      assertThat(storage.store("billing.wallets").read(A)).isPresent();
    }
    assertThat(rows("SELECT step FROM billing_wallets_migrations ORDER BY step"))
        .containsExactly("1", "2", "3");
  }

  @Test
  void store_tablesFromANewerRelease_areRefused() throws Exception {
    try (Storage storage = database.open()) {
      storage.store("billing.wallets");
    }
    execute("INSERT INTO billing_wallets_migrations VALUES (99, NOW(6))");
    try (Storage storage = database.open()) {
      assertThatThrownBy(() -> storage.store("billing.wallets"))
          .isInstanceOf(IllegalStateException.class)
          .isNotInstanceOf(UnreachableException.class)
          .hasMessageContaining("at migration step 99, newer than this toa4j knows");
    }
  }

  @Test
  void commit_jsonState_isKeptAsTheTextItCameAs() {
    String state = "{\"z\": 1, \"a\" :[1e300, -0.0, \"é\\u0000😀\"], \"nested\":{\"k\":null}}";
    try (Storage storage = database.open()) {
      Store store = storage.store("billing.wallets");
      assertThat(store.commit(new Write(0, new StoredRecord(A, 1, 1, 1, new Json(state)))))
          .isEqualTo(Outcome.COMMITTED);
      assertThat(store.read(A).orElseThrow().state().text()).isEqualTo(state);
    }
  }

  @Test
  void ids_differingOnlyInCase_areTwoRecords() {
    try (Storage storage = database.open()) {
      Store store = storage.store("billing.wallets");
      assertThat(
              store.commit(new Write(0, new StoredRecord("abc", 1, 1, 1, new Json("{\"n\":1}")))))
          .isEqualTo(Outcome.COMMITTED);
      assertThat(
              store.commit(new Write(0, new StoredRecord("ABC", 1, 2, 2, new Json("{\"n\":2}")))))
          .isEqualTo(Outcome.COMMITTED);
      assertThat(store.read("ABC").orElseThrow().state().text()).isEqualTo("{\"n\":2}");
    }
  }

  @Test
  void open_databaseThatDoesNotExist_failsWithoutCallingItUnreachable() {
    Map<String, String> options = Map.of("url", MARIADB.url("toa_no_such_database"));
    assertThatThrownBy(
            () ->
                TestDatabase.provider()
                    .open(new io.toa4j.spi.StorageSettings(java.nio.file.Path.of(".toa"), options)))
        .isInstanceOf(IllegalStateException.class)
        .isNotInstanceOf(UnreachableException.class)
        .hasMessageContaining("toa_no_such_database");
  }

  @Test
  void statementPastItsTimeout_isStoppedByTheServer_notTakenForALostConnection() throws Exception {
    try (Storage storage =
        database.open(Map.of("statement-timeout-seconds", "1", "pool-size", "1"))) {
      MariadbStorage mariadb = (MariadbStorage) storage;
      SQLException stopped =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  mariadb.withConnection(
                      c -> {
                        try (Statement s = c.createStatement()) {
                          return s.execute("SELECT SLEEP(3)");
                        }
                      }));
      assertThat(stopped.getErrorCode()).as("%s", stopped).isEqualTo(1969);
      assertThat(Failures.isUnreachable(stopped)).isFalse();
      assertThat(storage.store("billing.wallets").read(A)).as("the connection lives on").isEmpty();
    }
  }

  @Test
  void idOverItsColumn_failsTheCommit_neverStoredCut() {
    try (Storage storage = database.open()) {
      Store store = storage.store("billing.wallets");
      String id = "x".repeat(513);
      assertThatThrownBy(
              () -> store.commit(new Write(0, new StoredRecord(id, 1, 1, 1, new Json("{}")))))
          .isInstanceOf(IllegalStateException.class)
          .isNotInstanceOf(UnreachableException.class)
          .hasMessageContaining("Data too long");
      assertThat(store.page(10, 0)).isEmpty();
    }
  }

  @Test
  void writerWaitingOnARowLockPastTheStatementTimeout_failsSayingSo_notAsAnOutage()
      throws Exception {
    try (Storage storage =
            database.open(Map.of("statement-timeout-seconds", "1", "pool-size", "2"));
        Connection holder = database.connect()) {
      Store store = storage.store("billing.wallets");
      assertThat(store.commit(new Write(0, new StoredRecord(A, 1, 1, 1, new Json("{}")))))
          .isEqualTo(Outcome.COMMITTED);
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.executeUpdate("UPDATE billing_wallets_records SET updated = 5 WHERE id = '" + A + "'");
        assertThatThrownBy(
                () -> store.commit(new Write(1, new StoredRecord(A, 2, 1, 2, new Json("{}")))))
            .isInstanceOf(IllegalStateException.class)
            .isNotInstanceOf(UnreachableException.class)
            // whichever of the two, set alike, ends the wait first
            .hasMessageMatching("(?s).*(max_statement_time exceeded|Lock wait timeout exceeded).*");
      } finally {
        holder.rollback();
      }
      assertThat(store.commit(new Write(1, new StoredRecord(A, 2, 1, 2, new Json("{}")))))
          .isEqualTo(Outcome.COMMITTED);
    }
  }

  @Test
  void sessionLeftIdleInATransaction_isEndedByTheServer_freeingItsRowLocks() throws Exception {
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try (Storage storage =
        database.open(Map.of("statement-timeout-seconds", "1", "pool-size", "2"))) {
      Store store = storage.store("billing.wallets");
      assertThat(store.commit(new Write(0, new StoredRecord(A, 1, 1, 1, new Json("{}")))))
          .isEqualTo(Outcome.COMMITTED);
      java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch spoken = new java.util.concurrent.CountDownLatch(1);
      // a client of the storage's own pool that takes the row and then falls silent inside its
      // transaction
      Future<Throwable> silent =
          threads.submit(
              () -> {
                try {
                  ((MariadbStorage) storage)
                      .withConnection(
                          c -> {
                            c.setAutoCommit(false);
                            try (Statement s = c.createStatement()) {
                              s.executeUpdate(
                                  "UPDATE billing_wallets_records SET updated = 5 WHERE id = '"
                                      + A
                                      + "'");
                            }
                            locked.countDown();
                            try {
                              spoken.await(
                                  60, TimeUnit.SECONDS); // silent until the test saw its lock freed
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                            c.commit();
                            return null;
                          });
                  return null;
                } catch (Throwable e) {
                  return e;
                }
              });
      assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
      // each try waits for the row lock at most the statement timeout and writes nothing when it
      // fails; once the server ended the silent session (its idle timeout: the statement timeout +
      // 2 s) one commits
      org.awaitility.Awaitility.await("the row lock of the silent session freed")
          .atMost(30, TimeUnit.SECONDS)
          .ignoreExceptions()
          .until(
              () ->
                  store.commit(new Write(1, new StoredRecord(A, 2, 1, 2, new Json("{}"))))
                      == Outcome.COMMITTED);
      spoken.countDown();
      assertThat(silent.get(30, TimeUnit.SECONDS))
          .as("its commit, on a session the server ended")
          .isNotNull();
      assertThat(store.read(A).orElseThrow().updated()).isEqualTo(2);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void connectionLostInATransaction_whatFailsNextIsUnreachableToo() throws Exception {
    int port = TcpProxy.freePort();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(MARIADB.url(database.name(), port));
    config.setMaximumPoolSize(1);
    try (TcpProxy proxy = TcpProxy.start(port, MARIADB.host(), MARIADB.port());
        HikariDataSource pool = new HikariDataSource(config);
        Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement s = connection.createStatement()) {
        s.execute("SELECT 1");
        proxy.down();

        SQLException lost = catchThrowableOfType(SQLException.class, () -> s.execute("SELECT 1"));
        SQLException next = catchThrowableOfType(SQLException.class, connection::commit);

        assertThat(lost.getSQLState()).as("%s", lost).startsWith("08");
        assertThat(Failures.isUnreachable(lost)).isTrue();
        assertThat(Failures.isUnreachable(next)).as("the commit after it: %s", next).isTrue();
      }
    }
  }

  @Test
  void connectionLost_isAnOutage_andOnceTheServerIsBackNoCutConnectionIsHandedOut()
      throws Exception {
    int port = TcpProxy.freePort();
    try (TcpProxy proxy = TcpProxy.start(port, MARIADB.host(), MARIADB.port());
        Storage storage =
            database.open(Map.of("url", MARIADB.url(database.name(), port), "pool-size", "4"))) {
      Store store = storage.store("billing.wallets");
      assertThat(store.read(A)).isEmpty();

      proxy.down();
      assertThatThrownBy(() -> store.read(A)).isInstanceOf(UnreachableException.class);
      proxy.up();

      List<Throwable> failed = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        try {
          store.read(A);
        } catch (RuntimeException e) {
          failed.add(e);
        }
      }
      assertThat(failed).as("reads that failed once the server was back").isEmpty();
    }
  }

  @Test
  void describe_namesEngineAndUrl_neverThePassword() {
    try (Storage storage = database.open(Map.of("password", ""))) {
      assertThat(storage.describe())
          .startsWith("mariadb at jdbc:mariadb://")
          .contains(database.name());
    }
  }

  private List<String> rows(String sql) throws SQLException {
    try (Connection c = database.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int columns = r.getMetaData().getColumnCount();
      while (r.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) row.add(r.getString(i));
        rows.add(String.join(" ", row));
      }
      return rows;
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = database.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
