package io.toa4j.storage.postgres;

import static io.toa4j.testkit.servers.Server.POSTGRES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.UnreachableException;
import io.toa4j.spi.Write;
import io.toa4j.testkit.jdbc.CutShort;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.servers.Needs;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What only the PostgreSQL storage does on a real server: schemas, migrations, JSON columns,
 * settings ({@link PostgresStorageOfflineTest} holds what needs no server).
 */
@Needs(POSTGRES)
class PostgresStorageTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";

  private final String namespace = TestDatabase.freshNamespace();

  @AfterEach
  void dropSchemas() throws Exception {
    TestDatabase.drop(namespace);
  }

  @Test
  void open_withUserPasswordAndPoolSize_logsInAsThatRoleWithThatManyConnections() throws Exception {
    String role = "toa_" + namespace;
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'role-secret' CREATEDB");
      s.execute("GRANT CREATE ON DATABASE " + c.getCatalog() + " TO " + role);
    }
    try {
      Map<String, String> options =
          Map.of("user", role, "password", "role-secret", "pool-size", "3");
      try (Storage storage = TestDatabase.open(options)) {
        storage.store(namespace + ".wallets");

        assertThat(storage.describe()).contains("as " + role).doesNotContain("role-secret");
        assertThat(
                scalar(
                    "SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = '"
                        + namespace
                        + "_wallets'"))
            .isEqualTo(role);
        long deadline =
            System.nanoTime()
                + TimeUnit.SECONDS.toNanos(10); // the pool fills itself in the background
        while (Long.parseLong(
                    scalar("SELECT count(*) FROM pg_stat_activity WHERE usename = '" + role + "'"))
                < 3
            && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        assertThat(scalar("SELECT count(*) FROM pg_stat_activity WHERE usename = '" + role + "'"))
            .isEqualTo("3");
      }
    } finally {
      TestDatabase.drop(namespace);
      try (Connection c = TestDatabase.connect();
          Statement s = c.createStatement()) {
        s.execute("REVOKE ALL ON DATABASE " + c.getCatalog() + " FROM " + role);
        s.execute("DROP ROLE IF EXISTS " + role);
      }
    }
  }

  @Test
  void connectionLostInATransaction_whatFailsNextIsUnreachableToo() throws Exception {
    int port = TcpProxy.freePort();
    String database = POSTGRES.url().replaceFirst("^jdbc:postgresql://[^/]*/([^?]*).*$", "$1");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(POSTGRES.url(database, port));
    config.setMaximumPoolSize(1);
    try (TcpProxy proxy = TcpProxy.start(port, POSTGRES.host(), POSTGRES.port());
        HikariDataSource pool = new HikariDataSource(config);
        Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement s = connection.createStatement()) {
        s.execute("SELECT 1");
        proxy.down();

        SQLException lost = catchThrowableOfType(SQLException.class, () -> s.execute("SELECT 1"));
        SQLException next = catchThrowableOfType(SQLException.class, connection::commit);

        assertThat(lost.getSQLState()).startsWith("08");
        assertThat(next.getSQLState()).as("HikariCP closed the lost connection: %s", next).isNull();
        assertThat(Failures.isUnreachable(lost)).isTrue();
        assertThat(Failures.isUnreachable(next))
            .as("the commit after it, refused by the pool")
            .isTrue();
      }
    }
  }

  @Test
  void connectionLost_theOthersCutWithItAreNotHandedOutOnceTheServerIsBack() throws Exception {
    int port = TcpProxy.freePort();
    String database = POSTGRES.url().replaceFirst("^jdbc:postgresql://[^/]*/([^?]*).*$", "$1");
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try (TcpProxy proxy = TcpProxy.start(port, POSTGRES.host(), POSTGRES.port());
        Storage storage =
            TestDatabase.open(Map.of("url", POSTGRES.url(database, port), "pool-size", "4"))) {
      Store store = storage.store(namespace + ".wallets");
      long deadline =
          System.nanoTime()
              + TimeUnit.SECONDS.toNanos(10); // the pool fills itself in the background
      while (proxy.accepted() < 4 && System.nanoTime() < deadline) Thread.onSpinWait();
      assertThat(proxy.accepted()).as("connections the pool made").isEqualTo(4);
      readsAtOnce(
          threads,
          store); // every connection used a moment ago: HikariCP checks none of them when it hands
      // them out

      proxy.down();
      assertThatThrownBy(() -> store.read(A)).isInstanceOf(UnreachableException.class);
      proxy.up();

      assertThat(readsAtOnce(threads, store))
          .as("reads that failed once the server was back")
          .isEmpty();
    } finally {
      threads.shutdownNow();
    }
  }

  /** Four threads reading at once, 25 reads each; what failed. */
  private static List<Throwable> readsAtOnce(ExecutorService threads, Store store)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(4);
    List<Future<List<Throwable>>> done = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      done.add(
          threads.submit(
              () -> {
                start.await();
                List<Throwable> failed = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                  try {
                    store.read(A);
                  } catch (RuntimeException e) {
                    failed.add(e);
                  }
                }
                return failed;
              }));
    }
    List<Throwable> failed = new ArrayList<>();
    for (Future<List<Throwable>> f : done) failed.addAll(f.get(1, TimeUnit.MINUTES));
    return failed;
  }

  private static String scalar(String sql) throws Exception {
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  @Test
  void store_createsTheComponentsSchemaWithEveryMigrationRecorded() throws Exception {
    try (Storage storage = TestDatabase.open()) {
      storage.store(namespace + ".wallets");
    }
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                    + namespace
                    + "_wallets' ORDER BY 1")) {
      List<String> tables = new ArrayList<>();
      while (r.next()) tables.add(r.getString(1));
      assertThat(tables).containsExactly("inbox", "outbox", "records", "toa_migrations");
    }
    assertThat(steps(namespace + "_wallets")).isEqualTo(allSteps());
  }

  @Test
  void store_twoProcessesMigratingAtOnce_bothWorkAndStepsApplyOnce() throws Exception {
    String label = namespace + ".wallets";
    try (Storage first = TestDatabase.open();
        Storage second = TestDatabase.open()) {
      List<Store> stores = together(List.of(() -> first.store(label), () -> second.store(label)));

      assertThat(
              stores.get(0).commit(new Write(0, record(A, 1, JSON.createObjectNode().put("n", 1)))))
          .isEqualTo(Outcome.COMMITTED);
      assertThat(stores.get(1).read(A)).isPresent();
    }
    assertThat(steps(namespace + "_wallets")).isEqualTo(allSteps());
  }

  @Test
  void migrations_racingOnTwoConnections_applyEachStepOnce() throws Exception {
    Schema schema = Schema.of(namespace + ".wallets");
    try (Connection one = TestDatabase.connect();
        Connection two = TestDatabase.connect()) {
      List<Integer> applied =
          together(
              List.of(() -> Migrations.apply(one, schema), () -> Migrations.apply(two, schema)));

      assertThat(applied).containsExactlyInAnyOrder(0, Migrations.STEPS.size());
      assertThat(Migrations.apply(one, schema)).as("a later start").isZero();
    }
  }

  /**
   * A migration cut short by an {@link Error} after any of its statements ran on the server ({@link
   * CutShort}), its connection then closed as the pool discards one after an error, keeps nothing:
   * the next start applies every step. Turning auto-commit back on after the error would commit the
   * steps the transaction held, the last perhaps without its record, and every later start would
   * fail on it.
   */
  @Test
  void migration_cutShortAfterAnyStatement_keepsNothing_andTheNextStartAppliesEveryStep()
      throws Exception {
    Schema schema = Schema.of(namespace + ".wallets");
    CutShort counting = CutShort.after(0);
    try (Connection c = TestDatabase.connect()) {
      Migrations.apply(counting.wrap(c), schema);
    }
    int statements = counting.runs();
    assertThat(statements).isGreaterThan(2 * Migrations.STEPS.size());

    for (int n = 1; n <= statements; n++) {
      TestDatabase.drop(namespace);
      CutShort cut = CutShort.after(n);
      try (Connection c = TestDatabase.connect()) {
        assertThatThrownBy(() -> Migrations.apply(cut.wrap(c), schema))
            .isInstanceOf(CutShort.Cut.class);
      }
      try (Connection c = TestDatabase.connect()) {
        assertThat(Migrations.apply(c, schema))
            .as("steps the next start applies, after a cut at statement %d", n)
            .isEqualTo(Migrations.STEPS.size());
      }
      assertThat(steps(namespace + "_wallets")).isEqualTo(allSteps());
    }
  }

  /**
   * A schema migrated before outbox entries kept tasks: its entries read as before, without tasks.
   */
  @Test
  void store_schemaAtStep9_gainsTheTasksColumn_andItsEntriesReadWithoutTasks() throws Exception {
    Schema schema = Schema.of(namespace + ".wallets");
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement()) {
      migratedTo(s, schema, 9);
      s.execute(
          "INSERT INTO "
              + schema.table("outbox")
              + " (id, created, change, claimed_until) VALUES ('"
              + A
              + "', 1000, '{\"n\": 1}', 0)");
    }

    try (Storage storage = TestDatabase.open()) {
      Store store = storage.store(namespace + ".wallets");

      assertThat(store.unpublished(10))
          .extracting(e -> tree(e.change().orElseThrow()))
          .containsExactly(JSON.createObjectNode().put("n", 1));
      ArrayNode sent = JSON.createArrayNode();
      sent.addObject()
          .put("identity", "task-1")
          .put("endpoint", "test.sinks.absorb")
          .putObject("request")
          .putNull("query");
      OutboxEntry tasks =
          new OutboxEntry(
              "1" + A.substring(1), 2000, Optional.empty(), Optional.of(json(sent)), 2000);
      store.commit(new Write(0, record(A, 1, JSON.createObjectNode()), Optional.of(tasks)));
      assertThat(store.unpublished(10))
          .extracting(e -> e.tasks().map(PostgresStorageTest::tree))
          .containsExactly(Optional.empty(), Optional.of(sent));
    }
    assertThat(steps(namespace + "_wallets")).isEqualTo(allSteps());
  }

  /**
   * A schema migrated before the inbox remembered answered calls: its entries are forgotten when
   * they expire.
   */
  @Test
  void store_schemaAtStep11_keepsItsInboxEntries_forgottenWhenTheyExpire() throws Exception {
    Schema schema = Schema.of(namespace + ".wallets");
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement()) {
      migratedTo(s, schema, 11);
      s.execute(
          "INSERT INTO "
              + schema.table("inbox")
              + " (identity, reply, expires, fingerprint) VALUES ('call-1', '{\"balance\": 5}', 9000, 'fp')");
    }

    try (Storage storage = TestDatabase.open()) {
      Store store = storage.store(namespace + ".wallets");

      InboxEntry entry = store.recorded("call-1", 1000).orElseThrow();
      assertThat(tree(entry.reply().orElseThrow()))
          .isEqualTo(JSON.createObjectNode().put("balance", 5));
      assertThat(entry.fingerprint()).contains("fp");
      assertThat(entry.forgotten()).isEqualTo(9000);
      assertThat(store.recorded("call-1", 9000)).isEmpty();
      assertThat(store.purgeInbox(9000, 10)).isEqualTo(1);
      assertThat(((PostgresStore) store).inboxSize()).isZero();
    }
  }

  @Test
  void store_schemaFromANewerRelease_isRefused() throws Exception {
    try (Storage storage = TestDatabase.open()) {
      storage.store(namespace + ".wallets");
    }
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement()) {
      s.execute("INSERT INTO \"" + namespace + "_wallets\".toa_migrations VALUES (99, now())");
    }
    try (Storage storage = TestDatabase.open()) {
      assertThatThrownBy(() -> storage.store(namespace + ".wallets"))
          .hasMessageContaining("newer than this toa4j knows")
          .hasMessageContaining(namespace + "_wallets");
    }
  }

  @Test
  void commit_jsonState_roundTripsExactly() {
    ObjectNode state = JSON.createObjectNode();
    state
        .put("int", 42)
        .put("negative", -7)
        .put("long", Long.MAX_VALUE)
        .put("smallest", Long.MIN_VALUE);
    state.put("big", new BigInteger("123456789012345678901234567890"));
    state.put("decimal", 12.5).put("tenth", 0.1).put("tiny", 3.25e-5);
    state.put("yes", true).put("no", false).putNull("nothing");
    state.put("unicode", "Grüße, 東京, ﷽, 🙂, e\u0301, \"quoted\" \\ back\nline\ttab");
    state
        .putObject("nested")
        .put("z", 1)
        .put("a", 2)
        .putObject("deeper")
        .putArray("list")
        .add(1)
        .add("two")
        .addObject()
        .put("three", 3);
    state.putArray("empty");
    state.putObject("none");
    ObjectNode change = JSON.createObjectNode().putNull("origin").set("state", state.deepCopy());
    InboxEntry inbox = new InboxEntry("call-1", json(state), 9000);

    try (Storage storage = TestDatabase.open()) {
      Store store = storage.store(namespace + ".wallets");
      store.commit(
          new Write(
              0,
              record(A, 1, state),
              Optional.of(new OutboxEntry(A, 1000, json(change))),
              Optional.of(inbox)));

      assertThat(tree(store.read(A).orElseThrow().state())).isEqualTo(state);
      assertThat(tree(store.page(1, 0).get(0).state())).isEqualTo(state);
      assertThat(tree(store.unpublished(1).get(0).change().orElseThrow())).isEqualTo(change);
      assertThat(tree(store.recorded("call-1", 1000).orElseThrow().reply().orElseThrow()))
          .isEqualTo(state);
    }
  }

  @Test
  void store_labelThatIsNotNamespaceDotName_isRefusedBeforeAnySql() {
    try (Storage storage = TestDatabase.open()) {
      for (String label :
          List.of(
              "",
              "wallets",
              "billing.wallets.extra",
              "billing.",
              ".wallets",
              "1billing.wallets",
              "billing.wal-lets",
              "billing_x.wallets",
              "billing.\"wallets\"",
              "billing.wallets; DROP SCHEMA public CASCADE",
              "billing.wallets\u0000",
              "a".repeat(33) + ".wallets")) {
        assertThatThrownBy(() -> storage.store(label), label)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("is not a component label");
      }
    }
  }

  @Test
  void open_databaseThatDoesNotExist_failsWithoutCallingItUnreachable() {
    String url =
        TestDatabase.SERVER.url().replaceFirst("/[^/?]+(\\?|$)", "/toa_no_such_database$1");
    Map<String, String> options =
        TestDatabase.SERVER
            .user()
            .map(u -> Map.of("url", url, "user", u))
            .orElse(Map.of("url", url));

    assertThatThrownBy(
            () -> TestDatabase.provider().open(new StorageSettings(Path.of(".toa"), options)))
        .as("the server answers and says no: waiting would not help")
        .isInstanceOf(IllegalStateException.class)
        .isNotInstanceOf(UnreachableException.class)
        .hasMessageContaining("toa_no_such_database");
  }

  @Test
  void describe_namesEngineAndUrl_neverThePassword() {
    try (Storage storage =
        TestDatabase.open(
            Map.of(
                "url",
                TestDatabase.SERVER.url(),
                "user",
                "postgres",
                "password",
                "trust-ignores-it"))) {
      assertThat(storage.describe())
          .startsWith("postgres at " + TestDatabase.SERVER.url())
          .doesNotContain("trust-ignores-it");
      assertThat(storage.transactional()).isTrue();
    }
  }

  @Test
  void store_afterClose_isRefused() {
    Storage storage = TestDatabase.open();
    storage.close();

    assertThatThrownBy(() -> storage.store(namespace + ".wallets")).hasMessageContaining("closed");
  }

  private static StoredRecord record(String id, long version, ObjectNode state) {
    return new StoredRecord(id, version, 1000, 1000, json(state));
  }

  private static Json json(JsonNode value) {
    try {
      return new Json(JSON.writeValueAsString(value));
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static JsonNode tree(Json json) {
    try {
      return JSON.readTree(json.text());
    } catch (tools.jackson.core.JacksonException e) {
      throw new AssertionError(json.text(), e);
    }
  }

  /** Makes the schema as the first {@code steps} migration steps leave it, recorded as applied. */
  private static void migratedTo(Statement s, Schema schema, int steps) throws SQLException {
    s.execute("CREATE SCHEMA " + schema.quoted());
    s.execute(
        "CREATE TABLE "
            + schema.table("toa_migrations")
            + " (step int PRIMARY KEY, applied_at timestamptz NOT NULL)");
    for (int step = 1; step <= steps; step++) {
      s.execute(String.format(Migrations.STEPS.get(step - 1), schema.quoted()));
      s.execute("INSERT INTO " + schema.table("toa_migrations") + " VALUES (" + step + ", now())");
    }
  }

  /** Every migration step's number, 1 to the last. */
  private static List<Integer> allSteps() {
    return IntStream.rangeClosed(1, Migrations.STEPS.size()).boxed().toList();
  }

  private List<Integer> steps(String schema) throws Exception {
    try (Connection c = TestDatabase.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery("SELECT step FROM \"" + schema + "\".toa_migrations ORDER BY step")) {
      List<Integer> steps = new ArrayList<>();
      while (r.next()) steps.add(r.getInt(1));
      return steps;
    }
  }

  /**
   * Runs the tasks on threads of their own, released at once, and answers their results in order.
   */
  private static <T> List<T> together(List<Callable<T>> tasks) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(tasks.size());
    try {
      CyclicBarrier start = new CyclicBarrier(tasks.size());
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> task : tasks) {
        futures.add(
            threads.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return task.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) results.add(f.get(60, TimeUnit.SECONDS));
      return results;
    } finally {
      threads.shutdownNow();
    }
  }
}
