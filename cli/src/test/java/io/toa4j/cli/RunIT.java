package io.toa4j.cli;

import static io.toa4j.cli.ToaShell.WALLET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code toa run} in the background, and {@code toa call} reaching it. */
class RunIT {
  @TempDir Path temp;
  private Path shop;
  private Path logs;
  private ToaShell toa;
  private int runs;

  @BeforeEach
  void copyShop() throws IOException {
    shop = ToaShell.copyOfShop(temp);
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs);
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void call_whileRunRuns_isAnsweredByIt_andAfterItIsKilledEveryCommittedWriteIsStillThere()
      throws Exception {
    Process run = startRun("run");

    ToaShell.Result first =
        toa.run(shop, "call", "--verbose", "billing.wallets.credit", credit(5000, "c1"));
    assertThat(first.exitCode()).as("%s", first).isZero();
    assertThat(first.err()).contains("in the running context, pid " + run.pid());
    assertThat(toa.run(shop, "call", "billing.wallets.credit", credit(700, "c2")).exitCode())
        .isZero();
    ToaShell.Result debit =
        toa.run(
            shop,
            "call",
            "--verbose",
            "billing.wallets.debit",
            "{ query: { id: " + WALLET + " }, input: { amount: 200, ref: o1 } }");
    assertThat(debit.exitCode()).as("%s", debit).isZero();
    assertThat(debit.err()).contains("pid " + run.pid());

    // bin/toa execs java, so this is the JVM itself: SIGKILL, no shutdown hook runs
    run.destroyForcibly();
    assertThat(run.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(RunFile.path(shop)).as("a killed run leaves run.json behind").exists();

    // the left-over run.json names no live process: the call is not relayed, and runs in full here
    ToaShell.Result observe =
        toa.run(
            shop,
            "call",
            "--verbose",
            "billing.wallets.observe",
            "{ query: { id: " + WALLET + " } }");
    assertThat(observe.exitCode()).as("%s", observe).isZero();
    assertThat(observe.err())
        .contains("no longer runs", "in-process")
        .doesNotContain("which read the command line");
    assertThat(observe.yaml().path("balance").asLong()).isEqualTo(5500);
    assertThat(observe.yaml().path("VERSION").asLong()).isEqualTo(3);

    Process again = startRun("run");
    ToaShell.Result afterRestart =
        toa.run(
            shop,
            "call",
            "--verbose",
            "billing.wallets.observe",
            "{ query: { id: " + WALLET + " } }");
    assertThat(again.pid()).isNotEqualTo(run.pid());
    assertThat(afterRestart.err())
        .as("a new run takes over the left-over run.json")
        .contains("pid " + again.pid());
    assertThat(afterRestart.yaml().path("balance").asLong()).isEqualTo(5500);
  }

  @Test
  void call_whileRunRuns_isRelayedToIt_andPrintsWhatTheFullCommandLinePrints() throws IOException {
    Process run = startRun("run");
    assertThat(toa.run(shop, "call", "billing.wallets.credit", credit(5000, "c1")).exitCode())
        .isZero();
    String observe = "{ query: { id: " + WALLET + " } }";

    ToaShell.Result told = toa.run(shop, "call", "--verbose", "billing.wallets.observe", observe);
    assertThat(told.err())
        .as("%s", told)
        .contains("in the running context, pid " + run.pid(), "which read the command line");
    List<String[]> lines =
        List.of(
            new String[] {"call", "billing.wallets.observe", observe},
            new String[] {
              "call",
              "billing.wallets.debit",
              "{ query: { id: " + WALLET + " }, input: { amount: 6000, ref: o1 } }"
            },
            new String[] {"call", "billing.wallets.observe", "{ query: { id: " + WALLET},
            new String[] {"call", "billing.wallets.observe", observe, "surplus"});
    for (String[] line : lines) {
      ToaShell.Result relayed = toa.run(shop, line);

      assertThat(relayed).as("%s", List.of(line)).isEqualTo(ToaShell.inThisProcess(shop, line));
    }
    assertThat(toa.run(shop, lines.get(0)).yaml().path("balance").asLong()).isEqualTo(5000);
    assertThat(toa.run(shop, lines.get(1)).exitCode()).as("a refusal").isEqualTo(Toa.REFUSED);
    assertThat(toa.run(shop, lines.get(2)).err())
        .startsWith("failed (CONTRACT): the request is not YAML");
    assertThat(toa.run(shop, lines.get(3)).exitCode()).as("bad usage").isEqualTo(Toa.USAGE);

    Path jar = ToaShell.REPOSITORY.resolve("cli/target/toa4j-cli.jar");
    Path archive = jar.resolveSibling("toa4j-cli-relay.jsa");
    assertThat(archive).as("a relayed call has its own class-data archive").exists();
    assertThat(Files.getLastModifiedTime(archive)).isGreaterThan(Files.getLastModifiedTime(jar));
  }

  @Test
  void topupRecordedThroughRun_isHandledByTheRunningProcess() {
    Process run = startRun("run");

    ToaShell.Result record =
        toa.run(shop, "call", "--verbose", "billing.topups.record", ToaShell.topup("chk-1", 300));
    assertThat(record.exitCode()).as("%s", record).isZero();
    assertThat(record.err()).contains("pid " + run.pid());

    // the event is handled in the serving process, after the call's answer: poll until it is
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> toa.assertWallet(shop, 300, 1));
  }

  @Test
  void run_stoppedWithSigterm_drainsRemovesRunJsonAndExits0() throws Exception {
    Process run = startRun("run");

    run.destroy(); // SIGTERM
    assertThat(run.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    assertThat(run.exitValue()).as("a clean drain after SIGTERM is a success").isZero();
    assertThat(RunFile.path(shop)).doesNotExist();
    assertThat(ToaShell.read(logs.resolve("run-0.err"))).contains("stopped");
  }

  @Test
  void run_whileAnotherRunServesTheContext_exits1NamingIt() throws Exception {
    Process run = startRun("run");

    ToaShell.Result second = toa.run(shop, "run", "--http", "127.0.0.1:0");

    assertThat(second.exitCode()).as("%s", second).isEqualTo(1);
    assertThat(second.err()).contains("pid " + run.pid() + " already serves");
    assertThat(RunFile.read(RunFile.path(shop)).orElseThrow().pid()).isEqualTo(run.pid());
  }

  @Test
  void run_onAnHttpAddressAlreadyInUse_exits1NamingTheAddressAndTheHttpOption() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + taken.getLocalPort();

      ToaShell.Result run = toa.run(shop, "run", "--http", address);

      assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
      assertThat(run.err())
          .contains("cannot listen on " + address, "--http HOST:PORT", "--http 127.0.0.1:0");
      assertThat(run.err()).as("a message, not a stack trace").doesNotContain("\tat ");
      assertThat(RunFile.path(shop)).as("nothing serves the context").doesNotExist();
    }
  }

  /**
   * The arguments with {@code --http 127.0.0.1:0}: the shop's gateway must not take a fixed port.
   */
  private static String[] withFreeHttpPort(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--http";
    all[args.length + 1] = "127.0.0.1:0";
    return all;
  }

  /** Starts {@code toa run} and waits until its run.json names it and it has said it is up. */
  private Process startRun(String... args) {
    int n = runs++;
    Path err = logs.resolve("run-" + n + ".err");
    Process run = toa.start(shop, logs.resolve("run-" + n + ".out"), err, withFreeHttpPort(args));
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              if (!run.isAlive())
                throw new AssertionError(
                    "toa run ended with " + run.exitValue() + ":\n" + ToaShell.read(err));
              return RunFile.read(RunFile.path(shop)).filter(r -> r.pid() == run.pid()).isPresent()
                  && ToaShell.read(err).contains("is served by pid " + run.pid());
            });
    return run;
  }

  private static String credit(long amount, String ref) {
    return "{ query: { id: "
        + WALLET
        + " }, input: { amount: "
        + amount
        + ", type: topup, ref: "
        + ref
        + " } }";
  }
}
