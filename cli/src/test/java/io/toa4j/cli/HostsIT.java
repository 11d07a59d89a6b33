package io.toa4j.cli;

import static io.toa4j.cli.ToaShell.WALLET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shop across processes on PostgreSQL and RabbitMQ (a database and a virtual host of each
 * test's own): {@code toa run billing.topups} in one JVM, {@code toa run billing.wallets} in
 * another, and {@code toa call} from a third reaching them over the bus. The servers are the tests'
 * ({@link Server#url(String)}, {@link OwnEngines}); rabbitmqctl makes the virtual hosts, so the
 * broker must be on this machine.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class HostsIT {
  static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path temp;
  private Path shop;
  private Path logs;
  private ToaShell toa;
  private OwnEngines own;
  private String name;
  private int runs;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    own = OwnEngines.create();
    name = own.name();
    shop = ToaShell.copyOfShop(temp);
    logs = Files.createDirectories(temp.resolve("logs"));
    toa =
        new ToaShell(
            logs,
            Map.of(
                "TOA_STORAGE",
                "postgres",
                "TOA_STORAGE_URL",
                Server.POSTGRES.url(name),
                "TOA_BUS",
                "rabbitmq",
                "TOA_BUS_URL",
                Server.RABBITMQ.url(name)));
  }

  @AfterEach
  void stopAndDrop() throws Exception {
    toa.close(); // every process this test started, before their database and virtual host go
    own.close();
  }

  @Test
  void topupsAndWalletsInTwoProcesses_topupRecordedTwiceIsCreditedOnce_andCallsReachTheirHost() {
    Process topups = startRun("billing.topups");
    Process wallets = startRun("billing.wallets");

    ToaShell.Result first =
        toa.run(shop, "call", "--verbose", "billing.topups.record", ToaShell.topup("chk-1", 300));
    ToaShell.Result second =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));

    assertThat(first.exitCode()).as("%s", first).isZero();
    assertThat(first.err()).contains("over the rabbitmq bus");
    assertThat(second.exitCode()).as("%s", second).isZero();
    assertThat(first.yaml().path("checkout").asString()).isEqualTo("chk-1");
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> toa.assertWallet(shop, 300, 1));
    assertThat(RunFile.path(shop)).as("a distributed toa run writes no run.json").doesNotExist();

    ToaShell.Result credit =
        toa.run(shop, "call", "--id", "goodwill-1", "billing.wallets.credit", credit(50, "g1"));
    ToaShell.Result again =
        toa.run(shop, "call", "--id", "goodwill-1", "billing.wallets.credit", credit(50, "g1"));
    assertThat(credit.exitCode()).as("%s", credit).isZero();
    assertThat(again.exitCode()).as("%s", again).isZero();
    // equal as values: PostgreSQL's jsonb keeps the inbox's answer without its key order
    assertThat(again.yaml())
        .as("the repeat is answered with the first answer")
        .isEqualTo(credit.yaml());
    toa.assertWallet(shop, 350, 2);
    ToaShell.Result refused =
        toa.run(
            shop,
            "call",
            "billing.wallets.debit",
            "{ query: { id: " + WALLET + " }, input: { amount: 10000, ref: o1 } }");
    assertThat(refused.exitCode()).as("%s", refused).isEqualTo(Toa.REFUSED);
    assertThat(refused.err()).startsWith("refused: INSUFFICIENT_FUNDS");
    assertThat(topups.isAlive() && wallets.isAlive()).isTrue();
  }

  @Test
  void run_stoppedWithSigtermWhileCrediting_acknowledgesWhatItDid_andTheNextHostDoesTheRest()
      throws Exception {
    int credits = 2000;
    try (Bus sender = bus()) {
      // all queued before a host starts, so the stop below comes while it is crediting
      java.util.stream.IntStream.range(0, credits)
          .parallel()
          .forEach(i -> sender.send("billing.wallets..tasks", credit(i)));
      Process first = startRun("billing.wallets");
      await().atMost(PATIENCE).until(() -> wallets()[0] >= 20);

      first.destroy(); // SIGTERM: stop taking messages, finish those held, acknowledge them, close

      assertThat(first.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(ToaShell.read(logs.resolve("run-0.err"))).contains("Context shop stopped");
      long done = wallets()[0];
      assertThat(done).as("stopped while crediting").isLessThan(credits);
      // every credit is either written and acknowledged, or back in the queue: none both, none lost
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(wallets()[0] + sender.depth("billing.wallets..tasks"))
                      .isEqualTo(credits));

      startRun("billing.wallets");
      await().atMost(Duration.ofMinutes(5)).until(() -> wallets()[0] == credits);
      long[] all = wallets();
      assertThat(all[1]).as("wallets written once").isEqualTo(credits);
      assertThat(all[2]).as("total credited").isEqualTo((long) credits * (credits + 1) / 2);
    }
  }

  @Test
  void twoProcessesHostingWallets_eachCreditDeliveredTwice_isCreditedOnceAndBothWork()
      throws Exception {
    int credits = 2000;
    // each host logs every message it handles, so the test can tell who did what
    Map<String, String> debug = Map.of("JAVA_TOOL_OPTIONS", "-Dtoa.log.deliveries=DEBUG");
    startRun(debug, "billing.wallets");
    startRun(debug, "billing.wallets");
    try (Bus sender = bus()) {
      java.util.stream.IntStream.range(0, credits)
          .parallel()
          .forEach(
              i -> {
                sender.send("billing.wallets..tasks", credit(i));
                sender.send(
                    "billing.wallets..tasks",
                    credit(i)); // delivered twice, as after a lost acknowledgement
              });

      await().atMost(Duration.ofMinutes(5)).until(() -> delivered(0) + delivered(1) == 2 * credits);
      long[] all = wallets();
      assertThat(all[0]).as("wallets").isEqualTo(credits);
      assertThat(all[1]).as("wallets written once").isEqualTo(credits);
      assertThat(all[2]).as("total credited").isEqualTo((long) credits * (credits + 1) / 2);
      assertThat(delivered(0)).as("handled by the first process").isPositive();
      assertThat(delivered(1)).as("handled by the second process").isPositive();
    }
  }

  @Test
  void run_postgresAwayWhileCrediting_logsOneWarnAndOneInfoPerPart_andNoStackTrace()
      throws Exception {
    int port = TcpProxy.freePort();
    try (TcpProxy postgres = TcpProxy.start(port, Server.POSTGRES.host(), Server.POSTGRES.port())) {
      creditWhileAway(postgres, Map.of("TOA_STORAGE_URL", Server.POSTGRES.url(name, port)));
      assertOneWarnAndOneInfoPerPart(
          logs.resolve("run-0.err"), "Deliveries of queue billing.wallets..tasks");
    }
  }

  @Test
  void run_rabbitmqAwayWhileCrediting_logsOneWarnAndOneInfoPerPart_andNoStackTrace()
      throws Exception {
    int port = TcpProxy.freePort();
    try (TcpProxy rabbit = TcpProxy.start(port, Server.RABBITMQ.host(), Server.RABBITMQ.port())) {
      creditWhileAway(rabbit, Map.of("TOA_BUS_URL", Server.RABBITMQ.url(name, port)));
      assertOneWarnAndOneInfoPerPart(
          logs.resolve("run-0.err"), "The consumer of queue billing.wallets..tasks");
    }
  }

  /**
   * Runs the wallets with one server reached through the proxy; sends 20 credits, from here, while
   * the proxy cuts it off; brings it back once the run says something fails; waits for every
   * credit.
   */
  private void creditWhileAway(TcpProxy proxy, Map<String, String> throughProxy) throws Exception {
    try (Bus sender = bus()) {
      startRun(throughProxy, "billing.wallets");
      sender.send("billing.wallets..tasks", credit(0));
      await().atMost(PATIENCE).until(() -> wallets()[0] == 1);

      proxy.down();
      for (int i = 1; i <= 20; i++) sender.send("billing.wallets..tasks", credit(i));
      await()
          .atMost(PATIENCE)
          .until(() -> ToaShell.read(logs.resolve("run-0.err")).contains(" fails: "));
      proxy.up();

      await().atMost(PATIENCE).until(() -> wallets()[0] == 21);
    }
  }

  /**
   * What {@code toa run} wrote to stderr about an outage: each part that failed said so once, as a
   * WARN, and that it is back once, as an INFO; {@code expected} among them; no stack trace at all,
   * from toa4j or from a library; no line per message.
   */
  private static void assertOneWarnAndOneInfoPerPart(Path err, String expected) {
    List<String> parts =
        ToaShell.read(err)
            .lines()
            .filter(line -> line.contains(" WARN ") && line.contains(" fails: "))
            .map(line -> line.substring(line.indexOf(" - ") + 3, line.indexOf(" fails: ")))
            .distinct()
            .toList();
    assertThat(parts)
        .as("the parts that failed, in %s", ToaShell.read(err))
        .anyMatch(part -> part.startsWith(expected));
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              for (String part : parts) {
                assertThat(
                        ToaShell.read(err)
                            .lines()
                            .filter(
                                l ->
                                    l.contains(" INFO ")
                                        && l.contains(" - " + part + " is back after ")))
                    .as("%s is back, once", part)
                    .hasSize(1);
              }
            });
    String text = ToaShell.read(err);
    for (String part : parts) {
      assertThat(
              text.lines()
                  .filter(l -> l.contains(" WARN ") && l.contains(" - " + part + " fails: ")))
          .as("%s fails, once", part)
          .hasSize(1);
    }
    assertThat(text.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by: ")))
        .as("stack trace lines in %s", text)
        .isEmpty();
    assertThat(text.lines().filter(l -> l.contains("Message retried")))
        .as("a line per message")
        .isEmpty();
  }

  /** How many task messages the n-th toa run of this test logged as handled. */
  private long delivered(int run) {
    return ToaShell.read(logs.resolve("run-" + run + ".err"))
        .lines()
        .filter(line -> line.contains("Message delivered: queue=billing.wallets..tasks"))
        .count();
  }

  /** Credit i: amount i + 1 into a wallet of its own, as a task with an identity of its own. */
  private static Message credit(int i) {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.putObject("query").put("id", String.format("%032x", i));
    request.putObject("input").put("amount", i + 1).put("type", "goodwill").put("ref", "r" + i);
    return new Message(
        "credit-" + i,
        "billing.wallets.credit",
        new io.toa4j.spi.Json(request.toString()),
        Map.of());
  }

  /** Wallets written, those at version 1, and their balances' sum. */
  private long[] wallets() throws SQLException {
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url(name));
        Statement s = c.createStatement()) {
      if (!s.executeQuery(
              "SELECT 1 FROM pg_tables WHERE schemaname = 'billing_wallets' AND tablename = 'records'")
          .next()) {
        return new long[] {0, 0, 0};
      }
      ResultSet r =
          s.executeQuery(
              "SELECT count(*), count(*) FILTER (WHERE version = 1), coalesce(sum((state->>'balance')::bigint), 0) FROM billing_wallets.records");
      r.next();
      return new long[] {r.getLong(1), r.getLong(2), r.getLong(3)};
    }
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

  @Test
  void call_toAComponentNobodyHosts_failsAtOnceNamingIt() {
    startRun("billing.wallets");
    long start = System.nanoTime();

    ToaShell.Result call =
        toa.run(shop, "call", "billing.topups.observe", "{ query: { id: " + WALLET + " } }");

    assertThat(call.exitCode()).as("%s", call).isEqualTo(1);
    // "no process hosts" is answered before anything is sent; a call that waited says "no answer"
    assertThat(call.err())
        .contains(
            "failed (UNAVAILABLE): no process hosts billing.topups", "toa run billing.topups");
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("a JVM's start, not the 30 s a call waits")
        .isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void run_unknownComponent_isBadUsageNamingTheKnownOnes() {
    ToaShell.Result run = toa.run(shop, "run", "--http", "127.0.0.1:0", "billing.wallet");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(Toa.USAGE);
    assertThat(run.err())
        .contains(
            "no component 'billing.wallet'",
            "billing.topups, billing.wallets, fulfilment.shipments");
  }

  @Test
  void run_someComponentsOnTheEmbeddedBus_isRefusedSayingWhy() {
    ToaShell embedded =
        new ToaShell(logs); // the context's own engines: SQLite and the embedded bus

    ToaShell.Result run = embedded.run(shop, "run", "--http", "127.0.0.1:0", "billing.wallets");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains("hosts every component", "bus: rabbitmq");
  }

  /** Starts {@code toa run} hosting the components and waits until it says it is up. */
  private Process startRun(String... components) {
    return startRun(Map.of(), components);
  }

  private Process startRun(Map<String, String> environment, String... components) {
    int n = runs++;
    Path err = logs.resolve("run-" + n + ".err");
    // every process serves the shop's route: each on a port of its own, as on one machine it must
    String[] args = new String[components.length + 3];
    args[0] = "run";
    args[1] = "--http";
    args[2] = "127.0.0.1:0";
    System.arraycopy(components, 0, args, 3, components.length);
    Process run = toa.start(shop, logs.resolve("run-" + n + ".out"), err, environment, args);
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

  private static String credit(long amount, String ref) {
    return "{ query: { id: "
        + WALLET
        + " }, input: { amount: "
        + amount
        + ", type: goodwill, ref: "
        + ref
        + " } }";
  }
}
