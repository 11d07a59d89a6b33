package io.toa4j.cli;

import static io.toa4j.cli.ToaShell.WALLET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shop across processes on PostgreSQL and RabbitMQ (a database and a virtual host of each
 * test's own): {@code toa run billing.topups} in one JVM, {@code toa run billing.wallets} in
 * another, and {@code toa call} from a third reaching them over the bus.
 */
class HostsIT {
  static final String ADMIN = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path temp;
  private Path shop;
  private Path logs;
  private ToaShell toa;
  private String name;
  private int runs;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    byte[] random = new byte[8];
    ThreadLocalRandom.current().nextBytes(random);
    name = "toa_" + HexFormat.of().formatHex(random);
    try (Connection c = DriverManager.getConnection(ADMIN); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new AssertionError("PostgreSQL does not answer at " + ADMIN + ": " + e.getMessage(), e);
    }
    rabbitmqctl("add_vhost", name);
    rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*");
    shop = ToaShell.copyOfShop(temp);
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs, Map.of(
        "TOA_STORAGE", "postgres",
        "TOA_STORAGE_URL", "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres",
        "TOA_BUS", "rabbitmq",
        "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:5672/" + name));
  }

  @AfterEach
  void stopAndDrop() throws Exception {
    toa.close(); // every process this test started, before their database and virtual host go
    try (Connection c = DriverManager.getConnection(ADMIN); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    rabbitmqctl("delete_vhost", name);
  }

  @Test
  void topupsAndWalletsInTwoProcesses_topupRecordedTwiceIsCreditedOnce_andCallsReachTheirHost() {
    Process topups = startRun("billing.topups");
    Process wallets = startRun("billing.wallets");

    ToaShell.Result first = toa.run(shop, "call", "--verbose", "billing.topups.record", ToaShell.topup("chk-1", 300));
    ToaShell.Result second = toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));

    assertThat(first.exitCode()).as("%s", first).isZero();
    assertThat(first.err()).contains("over the rabbitmq bus");
    assertThat(second.exitCode()).as("%s", second).isZero();
    assertThat(first.yaml().path("checkout").asText()).isEqualTo("chk-1");
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> toa.assertWallet(shop, 300, 1));
    assertThat(RunFile.path(shop)).as("a distributed toa run writes no run.json").doesNotExist();

    ToaShell.Result credit = toa.run(shop, "call", "--id", "goodwill-1", "billing.wallets.credit", credit(50, "g1"));
    ToaShell.Result again = toa.run(shop, "call", "--id", "goodwill-1", "billing.wallets.credit", credit(50, "g1"));
    assertThat(credit.exitCode()).as("%s", credit).isZero();
    assertThat(again.exitCode()).as("%s", again).isZero();
    // equal as values: PostgreSQL's jsonb keeps the inbox's answer without its key order
    assertThat(again.yaml()).as("the repeat is answered with the first answer").isEqualTo(credit.yaml());
    toa.assertWallet(shop, 350, 2);
    assertThat(topups.isAlive() && wallets.isAlive()).isTrue();
  }

  @Test
  void call_toAComponentNobodyHosts_failsAtOnceNamingIt() {
    startRun("billing.wallets");
    long start = System.nanoTime();

    ToaShell.Result call = toa.run(shop, "call", "billing.topups.observe", "{ query: { id: " + WALLET + " } }");

    assertThat(call.exitCode()).as("%s", call).isEqualTo(1);
    // "no process hosts" is answered before anything is sent; a call that waited says "no answer"
    assertThat(call.err()).contains("failed (UNAVAILABLE): no process hosts billing.topups", "toa run billing.topups");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a JVM's start, not the 30 s a call waits").isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void run_unknownComponent_isBadUsageNamingTheKnownOnes() {
    ToaShell.Result run = toa.run(shop, "run", "billing.wallet");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(Toa.USAGE);
    assertThat(run.err()).contains("no component 'billing.wallet'", "billing.topups, billing.wallets, fulfilment.shipments");
  }

  @Test
  void run_someComponentsOnTheEmbeddedBus_isRefusedSayingWhy() {
    ToaShell embedded = new ToaShell(logs); // the context's own engines: SQLite and the embedded bus

    ToaShell.Result run = embedded.run(shop, "run", "billing.wallets");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains("hosts every component", "bus: rabbitmq");
  }

  /** Starts {@code toa run} hosting the components and waits until it says it is up. */
  private Process startRun(String... components) {
    int n = runs++;
    Path err = logs.resolve("run-" + n + ".err");
    String[] args = new String[components.length + 1];
    args[0] = "run";
    System.arraycopy(components, 0, args, 1, components.length);
    Process run = toa.start(shop, logs.resolve("run-" + n + ".out"), err, args);
    await()
        .atMost(PATIENCE)
        .until(() -> {
          if (!run.isAlive()) throw new AssertionError("toa run ended with " + run.exitValue() + ":\n" + ToaShell.read(err));
          return ToaShell.read(err).contains("pid " + run.pid() + " hosts " + String.join(", ", components));
        });
    return run;
  }

  private static String credit(long amount, String ref) {
    return "{ query: { id: " + WALLET + " }, input: { amount: " + amount + ", type: goodwill, ref: " + ref + " } }";
  }

  private static void rabbitmqctl(String... args) throws IOException, InterruptedException {
    String[] command = new String[args.length + 1];
    command[0] = "rabbitmqctl";
    System.arraycopy(args, 0, command, 1, args.length);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rabbitmqctl %s ended", args[0]).isTrue();
    assertThat(p.exitValue()).as("rabbitmqctl %s: %s", String.join(" ", args), out).isZero();
  }
}
