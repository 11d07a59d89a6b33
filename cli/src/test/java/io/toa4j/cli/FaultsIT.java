package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes of the shop killed with SIGKILL under load, on PostgreSQL and RabbitMQ (a database and
 * a virtual host of each test's own). The load comes from this JVM, a client of the bus ({@link
 * io.toa4j.runtime.Toa}) that repeats a failed call unchanged under the same identity, as a real
 * client does. Each test ends on the ledger: every wallet holds exactly the sum of its distinct
 * credits, at the version that counts them (none lost, none doubled), nothing is parked, every
 * queue is empty and every outbox entry is published. The servers are the tests' ({@link
 * Server#url(String)}); rabbitmqctl makes the virtual hosts and counts their messages, so the
 * broker must be on this machine.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class FaultsIT {
  static final String ADMIN = Server.POSTGRES.url();
  static final Duration PATIENCE = Duration.ofSeconds(90);

  /** How many times the outbox test may kill a host before it gives up catching an entry. */
  static final int MAX_KILLS = 8;

  static final String HELD_WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  /** Each message a host handles is logged, so a test can tell it took part. */
  static final Map<String, String> DELIVERIES =
      Map.of("JAVA_TOOL_OPTIONS", "-Dtoa.log.deliveries=DEBUG");

  @TempDir Path temp;
  private Path shop;
  private Path logs;
  private ToaShell toa;
  private OwnEngines own;
  private String name;
  private Map<String, String> environment;
  private int runs;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    own = OwnEngines.create();
    name = own.name();
    shop = ToaShell.copyOfShop(temp);
    logs = Files.createDirectories(temp.resolve("logs"));
    environment =
        Map.of(
            "TOA_STORAGE",
            "postgres",
            "TOA_STORAGE_URL",
            Server.POSTGRES.url(name),
            "TOA_BUS",
            "rabbitmq",
            "TOA_BUS_URL",
            Server.RABBITMQ.url(name));
    toa = new ToaShell(logs, environment);
  }

  @AfterEach
  void stopAndDrop() throws Exception {
    toa.close(); // every process this test started, before their database and virtual host go
    own.close();
  }

  @Test
  void walletsHostKilledThreeTimesUnderLoad_everyDistinctCreditLandsOnce() throws Exception {
    startRun("billing.topups");
    startRun("billing.wallets"); // stays up throughout
    Process victim = startRun(DELIVERIES, "billing.wallets");
    try (io.toa4j.runtime.Toa client = client();
        Load load = new Load(client, 4, Load.Mix.TOPUPS_AND_CREDITS, 16)) {
      for (int kill = 1; kill <= 3; kill++) {
        int run = runs - 1;
        load.awaitProgress(150);
        // killed while it takes part: it has handled events of this load, which goes on
        await().atMost(PATIENCE).until(() -> delivered(run) >= 20);
        victim.destroyForcibly(); // SIGKILL: bin/toa execs java, so this is the JVM, mid-work
        assertThat(victim.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(victim.exitValue()).as("killed, not stopped").isEqualTo(137);
        victim = startRun(DELIVERIES, "billing.wallets");
      }
      load.awaitProgress(150);
      load.stop();
      System.out.printf(
          "FaultsIT: %d calls answered, %d repeated, 3 kills%n", load.answered(), load.repeats());

      assertLedger(load);
    }
  }

  @Test
  void
      topupsHostKilledBetweenCommitAndPublish_anotherProcessPublishesItsClaimedEntries_creditedOnce()
          throws Exception {
    startRun("billing.wallets");
    Process host = startRun("billing.topups");
    Map<String, Long> caught = Map.of();
    try (io.toa4j.runtime.Toa client = client();
        Load load = new Load(client, 6, Load.Mix.TOPUPS, 0)) {
      int kills = 0;
      while (caught.isEmpty()) {
        assertThat(kills)
            .as("kills of a topups host, none between a commit and its publish")
            .isLessThan(MAX_KILLS);
        load.awaitProgress(100);
        host.destroyForcibly();
        assertThat(host.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        kills++;
        // no process hosts billing.topups now: an entry unpublished and still claimed was
        // committed by the dead process, which was about to publish it
        caught = claimedUnpublished();
        host = startRun("billing.topups"); // another process, which sweeps what the dead one left
      }
      load.awaitProgress(100);
      load.stop();
      System.out.printf(
          "FaultsIT: %d kills, %d entries caught unpublished, %d calls answered, %d repeated%n",
          kills, caught.size(), load.answered(), load.repeats());

      Map<String, Long> claims = caught;
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                Map<String, Long> published = published(claims.keySet());
                assertThat(published)
                    .as("entries of the dead process, published")
                    .containsOnlyKeys(claims.keySet());
                // by the sweep of the living process, once the dead one's claim had ended
                claims.forEach(
                    (id, claimedUntil) ->
                        assertThat(published.get(id))
                            .as("published %s", id)
                            .isGreaterThanOrEqualTo(claimedUntil));
              });
      assertLedger(load);
      Map<String, long[]> wallets = wallets();
      for (String customer : customers(claims.keySet())) {
        assertThat(wallets.get(customer))
            .as("wallet %s, credited by a swept event", customer)
            .isNotNull();
        assertThat(wallets.get(customer)[1]).as("wallet %s credited once", customer).isEqualTo(1);
      }
    }
  }

  // A host is made to hold a call, deterministically and without a hook: the test locks the
  // wallet's row, so the host's write waits in PostgreSQL with the call taken and unanswered.

  @Test
  void walletsHostKilledHoldingACall_anotherHostAnswersTheWaitingCaller_andTheRepeatCreditsOnce()
      throws Exception {
    Process holder = startRun("billing.wallets");
    try (io.toa4j.runtime.Toa client = client(Duration.ofSeconds(90));
        Connection lock = database()) {
      assertThat(client.call("billing.wallets.credit", credit(1, "opening"), "opening"))
          .isInstanceOf(Reply.Output.class);
      lockWallet(lock);
      CompletableFuture<Reply> held =
          CompletableFuture.supplyAsync(
              () -> client.call("billing.wallets.credit", credit(50, "held"), "held-1"));
      await()
          .atMost(PATIENCE)
          .until(() -> writesWaitingForTheLock().size() == 1); // the holder has the call
      List<Integer> holders = writesWaitingForTheLock();
      startRun("billing.wallets"); // competes for the queue, but the call is the holder's

      holder.destroyForcibly();
      assertThat(holder.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // the broker hands the call to the other host, which waits for the row too; the dead
      // process's backend checks its client every second (client_connection_check_interval), finds
      // it gone and rolls back
      await()
          .atMost(PATIENCE)
          .until(
              () -> {
                List<Integer> waiting = writesWaitingForTheLock();
                return waiting.size() == 1 && !waiting.equals(holders);
              });
      assertThat(held).as("the caller still waits").isNotDone();
      lock.rollback();

      Reply answer = held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertThat(balanceAndVersion(answer))
          .as("answered by the other host")
          .containsExactly(51L, 2L);
      assertThat(client.call("billing.wallets.credit", credit(50, "held"), "held-1"))
          .as("the repeat")
          .isEqualTo(answer);
      assertThat(wallets()).containsExactly(Map.entry(HELD_WALLET, new long[] {51, 2}));
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(messagesInQueues()).as("messages in queues").isEmpty());
    }
  }

  @Test
  void onlyWalletsHostKilledHoldingACall_callerTimesOutSayingRepeat_andTheRepeatCreditsOnce()
      throws Exception {
    Process holder = startRun("billing.wallets");
    try (io.toa4j.runtime.Toa impatient = client(Duration.ofSeconds(8));
        Connection lock = database()) {
      assertThat(impatient.call("billing.wallets.credit", credit(1, "opening"), "opening"))
          .isInstanceOf(Reply.Output.class);
      lockWallet(lock);
      CompletableFuture<Reply> held =
          CompletableFuture.supplyAsync(
              () -> impatient.call("billing.wallets.credit", credit(50, "held"), "held-1"));
      await().atMost(PATIENCE).until(() -> writesWaitingForTheLock().size() == 1);

      holder.destroyForcibly();
      assertThat(holder.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

      assertThat(catchThrowable(() -> held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.UNAVAILABLE))
          .hasMessageContaining("no answer from billing.wallets")
          .hasMessageContaining("repeat it under the same identity held-1");
      lock.rollback();
      startRun("billing.wallets");
    }
    try (io.toa4j.runtime.Toa client = client(Duration.ofSeconds(90))) {
      Reply repeat = client.call("billing.wallets.credit", credit(50, "held"), "held-1");
      assertThat(balanceAndVersion(repeat)).as("credited once").containsExactly(51L, 2L);
      assertThat(client.call("billing.wallets.credit", credit(50, "held"), "held-1"))
          .isEqualTo(repeat);
      assertThat(wallets()).containsExactly(Map.entry(HELD_WALLET, new long[] {51, 2}));
      await()
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(messagesInQueues()).as("messages in queues").isEmpty());
      try (Bus bus = bus()) {
        assertThat(bus.parking().orElseThrow().parked()).as("parked messages").isEmpty();
      }
    }
  }

  private static Request credit(long amount, String ref) {
    return Request.of(
        Query.id(HELD_WALLET), Map.of("amount", amount, "type", "goodwill", "ref", ref));
  }

  /** Takes the wallet's row lock in a transaction of the connection, which the test ends. */
  private static void lockWallet(Connection lock) throws SQLException {
    lock.setAutoCommit(false);
    try (PreparedStatement s =
        lock.prepareStatement("SELECT 1 FROM billing_wallets.records WHERE id = ? FOR UPDATE")) {
      s.setString(1, HELD_WALLET);
      try (ResultSet r = s.executeQuery()) {
        assertThat(r.next()).as("wallet %s exists", HELD_WALLET).isTrue();
      }
    }
  }

  /** The process ids of the sessions of the test's database that wait for a lock. */
  private List<Integer> writesWaitingForTheLock() throws SQLException {
    try (Connection c = DriverManager.getConnection(ADMIN);
        PreparedStatement s =
            c.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE datname = ? AND wait_event_type = 'Lock' ORDER BY pid")) {
      s.setString(1, name);
      try (ResultSet r = s.executeQuery()) {
        List<Integer> pids = new java.util.ArrayList<>();
        while (r.next()) pids.add(r.getInt(1));
        return pids;
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Long> balanceAndVersion(Reply reply) {
    assertThat(reply).isInstanceOf(Reply.Output.class);
    Object value = ((Reply.Output) reply).value().orElseThrow();
    Map<String, Object> wallet = (Map<String, Object>) value;
    return List.of(
        ((Number) wallet.get("balance")).longValue(), ((Number) wallet.get("VERSION")).longValue());
  }

  /** Starts {@code toa run} hosting the components and waits until it says it is up. */
  private Process startRun(String... components) {
    return startRun(Map.of(), components);
  }

  private Process startRun(Map<String, String> more, String... components) {
    int n = runs++;
    Path err = logs.resolve("run-" + n + ".err");
    // every process serves the shop's route: each on a port of its own, as on one machine it must
    String[] args = new String[components.length + 3];
    args[0] = "run";
    args[1] = "--http";
    args[2] = "127.0.0.1:0";
    System.arraycopy(components, 0, args, 3, components.length);
    Process run = toa.start(shop, logs.resolve("run-" + n + ".out"), err, more, args);
    await()
        .atMost(PATIENCE)
        .until(
            () -> {
              if (!run.isAlive())
                throw new AssertionError(
                    "toa run ended with " + run.exitValue() + ":\n" + ToaShell.read(err));
              return ToaShell.read(err)
                  .contains("pid " + run.pid() + " hosts " + String.join(", ", components));
            });
    return run;
  }

  private io.toa4j.runtime.Toa client() {
    return client(Duration.ofSeconds(10));
  }

  private io.toa4j.runtime.Toa client(Duration callTimeout) {
    Options options = Options.defaults().withEnvironment(environment).withCallTimeout(callTimeout);
    io.toa4j.runtime.ToaBuilder builder =
        io.toa4j.runtime.Toa.builder().directory(shop).options(options);
    if (!builder.distributed()) throw new AssertionError("the shop is not on a distributed bus");
    return builder.connect();
  }

  /**
   * The ledger invariant, awaited while the last deliveries settle: each wallet the load credited
   * holds the sum of its distinct credits at the version that counts them, no other wallet exists,
   * nothing is parked, no queue holds a message and no outbox entry waits.
   */
  private void assertLedger(Load load) throws Exception {
    Map<String, long[]> expected = load.expected();
    assertThat(expected).as("the load credited wallets").isNotEmpty();
    try (Bus bus = bus()) {
      await()
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () -> {
                assertThat(wallets())
                    .as("wallet -> [balance, version]")
                    .containsExactlyInAnyOrderEntriesOf(expected);
                assertThat(unpublished())
                    .as("outbox entries of billing.topups not published")
                    .isZero();
                assertThat(messagesInQueues()).as("messages in queues").isEmpty();
              });
      assertThat(bus.parking().orElseThrow().parked()).as("parked messages").isEmpty();
    }
  }

  /** How many messages the n-th toa run of this test logged as handled. */
  private long delivered(int run) {
    return ToaShell.read(logs.resolve("run-" + run + ".err"))
        .lines()
        .filter(line -> line.contains("Message delivered:"))
        .count();
  }

  /**
   * The outbox entries of billing.topups not published and claimed until later than now, with their
   * claims.
   */
  private Map<String, Long> claimedUnpublished() throws SQLException {
    Map<String, Long> entries = new TreeMap<>();
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, claimed_until FROM billing_topups.outbox WHERE published IS NULL AND claimed_until > ?")) {
      s.setLong(1, System.currentTimeMillis());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) entries.put(r.getString(1), r.getLong(2));
      }
    }
    return entries;
  }

  /** When each of these outbox entries of billing.topups was published, for those that were. */
  private Map<String, Long> published(Set<String> ids) throws SQLException {
    Map<String, Long> published = new TreeMap<>();
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, published FROM billing_topups.outbox WHERE id = ANY (?) AND published IS NOT NULL")) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) published.put(r.getString(1), r.getLong(2));
      }
    }
    return published;
  }

  /** The customers of the top-ups these outbox entries of billing.topups carry. */
  private Set<String> customers(Set<String> ids) throws SQLException {
    Set<String> customers = new TreeSet<>();
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT change->'state'->>'customer' FROM billing_topups.outbox WHERE id = ANY (?)")) {
      s.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) customers.add(r.getString(1));
      }
    }
    assertThat(customers).as("customers of the entries").hasSameSizeAs(ids).doesNotContainNull();
    return customers;
  }

  /** Every wallet in PostgreSQL: its balance and version. */
  private Map<String, long[]> wallets() throws SQLException {
    Map<String, long[]> wallets = new TreeMap<>();
    try (Connection c = database();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT id, (state->>'balance')::bigint, version FROM billing_wallets.records")) {
      while (r.next()) wallets.put(r.getString(1), new long[] {r.getLong(2), r.getLong(3)});
    }
    return wallets;
  }

  private long unpublished() throws SQLException {
    try (Connection c = database();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery("SELECT count(*) FROM billing_topups.outbox WHERE published IS NULL")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** The queues of the test's virtual host that hold a message, with how many. */
  private Map<String, Long> messagesInQueues() throws IOException, InterruptedException {
    Map<String, Long> busy = new TreeMap<>();
    for (String line :
        VirtualHosts.rabbitmqctl(
                "list_queues", "-p", name, "--quiet", "--no-table-headers", "name", "messages")
            .lines()
            .toList()) {
      String[] columns = line.trim().split("\\s+");
      if (columns.length == 2 && !columns[1].equals("0"))
        busy.put(columns[0], Long.parseLong(columns[1]));
    }
    return busy;
  }

  private Connection database() throws SQLException {
    return DriverManager.getConnection(Server.POSTGRES.url(name));
  }

  private Bus bus() {
    for (BusProvider provider : ServiceLoader.load(BusProvider.class)) {
      if (provider.name().equals("rabbitmq")) {
        return provider.open(
            new BusSettings(temp, Map.of("url", Server.RABBITMQ.url(name)), Clock.systemUTC()));
      }
    }
    throw new AssertionError("no rabbitmq bus on the class path");
  }
}
