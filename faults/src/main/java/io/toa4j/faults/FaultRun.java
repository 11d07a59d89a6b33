package io.toa4j.faults;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The fault run's driver, started by {@code faults/run} once the run's servers and namespaces are
 * up: it starts the shop's processes, drives the load, injects the faults, checks the ledger and
 * prints the report, whose last line is {@code ledger: lost N, doubled N, wrong N, parked N}.
 *
 * <p>Usage: {@code FaultRun --repository DIR --dir RUN-DIR --minutes N --engine
 * distributed|embedded}. Exits 0 when the ledger is clean, 1 when it is not, 2 when the run could
 * not be set up or could not go on (a server that did not come back).
 */
public final class FaultRun {
  /** Components per process on the distributed engine: each component has two hosts. */
  private static final List<List<String>> HOSTING =
      List.of(
          List.of("billing.topups", "billing.wallets"),
          List.of("billing.wallets", "fulfilment.shipments"),
          List.of("fulfilment.shipments", "billing.topups"));

  private static final int CLIENTS = 6;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  /** How many of the probe's slowest events the report explains. */
  private static final int SLOWEST = 3;

  private static final Duration PATIENCE = Duration.ofSeconds(90);

  /**
   * How long the end waits for what is in flight at least; a longer run, 10 s per minute of faults.
   */
  private static final Duration DRAIN = Duration.ofSeconds(120);

  /** When the floor of a start is first measured after the faults begin, and how often after. */
  private static final Duration FLOOR_FIRST = Duration.ofSeconds(15);

  private static final Duration FLOOR_EVERY = Duration.ofSeconds(40);

  private FaultRun() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    Path repository = Path.of(options.get("--repository"));
    Path dir = Path.of(options.get("--dir"));
    int minutes = Integer.parseInt(options.getOrDefault("--minutes", "2"));
    boolean distributed = options.getOrDefault("--engine", "distributed").equals("distributed");
    PrintStream out = System.out;
    Hosts hosts = null;
    try {
      Optional<Servers> servers =
          distributed ? Optional.of(new Servers(repository, dir)) : Optional.empty();
      servers.ifPresent(FaultRun::createDatabase);
      Path shop = dir.resolve("shop");
      Path logs = Files.createDirectories(dir.resolve("logs"));
      hosts = new Hosts(repository, shop, logs, hosting(servers));
      Hosts started = hosts;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> killAll(started)));
      out.printf(
          "fault run: engine %s, %d minutes, %d processes%n",
          distributed ? "distributed" : "embedded", minutes, hosts.hosts().size());
      startAll(hosts);
      System.exit(run(hosts, servers, shop, logs, minutes, out));
    } catch (SetupFailed e) {
      stop(out, hosts, "could not set up: " + e.getMessage());
    } catch (Exception e) {
      // a fault that could not be injected or healed (a server that did not come back): the run
      // cannot say what the system did, so it says what went wrong instead
      e.printStackTrace();
      stop(out, hosts, "could not go on: " + e);
    }
  }

  private static void stop(PrintStream out, Hosts hosts, String why) {
    out.println("fault run: " + why);
    out.println("ledger: lost 0, doubled 0, wrong 0, parked 0 (not run)");
    killAll(hosts);
    System.exit(2);
  }

  /** The run could not start what it needs. */
  static final class SetupFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SetupFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static int run(
      Hosts hosts, Optional<Servers> servers, Path shop, Path logs, int minutes, PrintStream out)
      throws Exception {
    Map<String, String> environment = servers.map(s -> s.environment(0)).orElse(Map.of());
    Options options = Options.defaults().withEnvironment(environment).withCallTimeout(CALL_TIMEOUT);
    try (Toa client = Toa.builder().directory(shop).options(options).connect();
        Bus bus = bus(client, servers);
        Caller caller = servers.isPresent() ? new BusCaller(client) : new ChannelCaller(shop)) {
      Progress progress = new Progress();
      Load load = new Load(caller, progress, logs);
      Faults faults = new Faults(hosts, servers, progress, out, minutes > 5);
      Floor floor = new Floor(hosts.repository(), logs.getParent());
      long began = System.nanoTime();
      load.start(CLIENTS);
      Thread floors = floors(floor, out);
      try {
        faults.run(began + Duration.ofMinutes(minutes).toNanos());
      } finally {
        floors.interrupt();
        floors.join(Duration.ofMinutes(2).toMillis());
      }
      for (Hosts.Host host : hosts.hosts()) if (!hosts.alive(host)) hosts.launchAndAwait(host, 120);
      progress.stopMeasuring();
      load.stop(PATIENCE);
      long loaded = System.nanoTime() - began;
      long draining = System.nanoTime();
      Ledger.Result ledger =
          new Ledger(caller, client, bus)
              .check(load, max(DRAIN, Duration.ofSeconds(10L * minutes)), out);
      out.printf("drained and checked in %.1f s%n", (System.nanoTime() - draining) / 1e9);
      if (!ledger.lacking().isEmpty() && servers.isEmpty()) {
        out.println("what became of the credits wallets lack:");
        Shortfall.explain(
            out,
            logs.resolve("facts.tsv"),
            shop.resolve(".toa").resolve("storage"),
            ledger.lacking());
        Shortfall.reobserve(out, caller, hosts, ledger.lacking());
      }
      report(
          out,
          faults,
          load,
          progress,
          hosts,
          floor,
          loaded,
          ledger,
          servers.map(s -> new Held(s.database(0), logs, progress)));
      return ledger.clean() ? 0 : 1;
    }
  }

  /**
   * Measures the floor of a start while the faults go on: {@link #FLOOR_FIRST} after they begin,
   * then every {@link #FLOOR_EVERY}, until interrupted.
   */
  private static Thread floors(Floor floor, PrintStream out) {
    Thread thread =
        new Thread(
            () -> {
              try {
                Thread.sleep(FLOOR_FIRST.toMillis());
                while (true) {
                  floor.measure();
                  Thread.sleep(FLOOR_EVERY.toMillis());
                }
              } catch (InterruptedException e) {
                // the faults are over
              } catch (IOException e) {
                out.println(
                    "fault run: the floor of a start could not be measured: " + e.getMessage());
              }
            },
            "floor");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void report(
      PrintStream out,
      Faults faults,
      Load load,
      Progress progress,
      Hosts hosts,
      Floor floor,
      long loaded,
      Ledger.Result ledger,
      Optional<Held> held) {
    out.printf(
        "load: %.0f s, %d facts asked for by %d clients (%s), %d answers%n",
        loaded / 1e9, load.facts(), CLIENTS, Ledger.figures(load.expected()), progress.count());
    out.println(
        "faults: "
            + faults.injected().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")));
    out.printf(
        "calls repeated by clients: %d; slowest call %.1f s from its first sending to its answer, %d took over %d s%n",
        load.repeated(), load.slowest() / 1e9, load.slow(), Load.SLOW.toSeconds());
    out.println("asked again on purpose: " + load.askedAgain());
    out.printf(
        "events: the longest from a top-up's answer to its wallet credited %.1f s%s, over %d probes%n",
        load.lag() / 1e9,
        progress.faultBefore(load.lagFrom()).map(f -> " (after " + f + ")").orElse(""),
        load.probes());
    held.ifPresent(
        h -> {
          h.report(out, load.slowestProbes(SLOWEST));
          h.cuts(out, load.probeEvents());
        });
    Progress.Stall beyond = progress.longestBeyondFaults();
    Progress.Stall longest = progress.longest();
    out.printf(
        "longest stall: %.1f s beyond the faults themselves%s; longest time no call completed %.1f s%s%n",
        beyond.nanos() / 1e9,
        beyond.after().map(f -> " (after " + f + ")").orElse(""),
        longest.nanos() / 1e9,
        longest.after().map(f -> " (after " + f + ")").orElse(""));
    out.println("start to serving: " + serving(hosts));
    out.println("floor of a start: " + floor(floor, hosts));
    for (String note : ledger.notes().subList(0, Math.min(20, ledger.notes().size())))
      out.println("  " + note);
    out.printf(
        "ledger: lost %d, doubled %d, wrong %d, parked %d%n",
        ledger.lost(), ledger.doubled(), ledger.wrong(), ledger.parked());
  }

  /** Each process's starts: how many, and the shortest, median and longest time to serving. */
  private static String serving(Hosts hosts) {
    List<String> parts = new ArrayList<>();
    for (Hosts.Host host : hosts.hosts()) {
      List<Long> times =
          hosts.starts().stream()
              .filter(s -> s.host() == host && s.millisToServing().isPresent())
              .map(s -> s.millisToServing().get())
              .sorted()
              .toList();
      long killed =
          hosts.starts().stream()
              .filter(s -> s.host() == host && s.millisToServing().isEmpty())
              .count();
      if (times.isEmpty()) {
        parts.add("host " + host.number() + " never served");
        continue;
      }
      parts.add(
          String.format(
              "host %d %d starts %.1f/%.1f/%.1f s%s",
              host.number(),
              times.size(),
              times.get(0) / 1e3,
              times.get(times.size() / 2) / 1e3,
              times.get(times.size() - 1) / 1e3,
              killed > 0 ? " (" + killed + " killed before serving)" : ""));
    }
    return String.join("; ", parts) + " (shortest/median/longest)";
  }

  /** The floor's measures, and the starts' median against the floor's. */
  private static String floor(Floor floor, Hosts hosts) {
    List<Long> times = floor.millis();
    if (times.isEmpty()) return "not measured (no run archive yet, or the faults ended first)";
    List<Long> starts =
        hosts.starts().stream().flatMap(s -> s.millisToServing().stream()).sorted().toList();
    String ratio =
        starts.isEmpty()
            ? ""
            : String.format(
                "; the starts' median %.1f s is %.1f times the floor's",
                starts.get(starts.size() / 2) / 1e3,
                (double) starts.get(starts.size() / 2) / times.get(times.size() / 2));
    return String.format(
        "a JVM that only loads and links the %d classes of the run's archive, from it: %d measures %.1f/%.1f/%.1f s"
            + " (shortest/median/longest)%s",
        floor.classes(),
        times.size(),
        times.get(0) / 1e3,
        times.get(times.size() / 2) / 1e3,
        times.get(times.size() - 1) / 1e3,
        ratio);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static List<Hosts.Host> hosting(Optional<Servers> servers) {
    List<Hosts.Host> hosts = new ArrayList<>();
    if (servers.isEmpty()) {
      hosts.add(new Hosts.Host(1, List.of(), Optional.empty(), Map.of()));
      return hosts;
    }
    for (int n = 1; n <= servers.get().hosts(); n++) {
      hosts.add(
          new Hosts.Host(
              n,
              HOSTING.get((n - 1) % HOSTING.size()),
              Optional.of(servers.get().namespace(n)),
              servers.get().environment(n)));
    }
    return hosts;
  }

  /**
   * The first process alone (it compiles the shop's classes into the context's cache), then the
   * rest.
   */
  private static void startAll(Hosts hosts) throws InterruptedException {
    List<Hosts.Host> all = hosts.hosts();
    if (!hosts.launchAndAwait(all.get(0), 180))
      throw new SetupFailed(all.get(0).name() + " did not serve within 180 s", null);
    for (Hosts.Host host : all.subList(1, all.size())) hosts.launch(host);
    for (Hosts.Host host : all.subList(1, all.size())) {
      if (!hosts.awaitServing(host, 180))
        throw new SetupFailed(host.name() + " did not serve within 180 s", null);
    }
  }

  private static void createDatabase(Servers servers) {
    try (Connection c =
            DriverManager.getConnection(servers.database(0).replace("/shop?", "/postgres?"));
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE shop");
    } catch (java.sql.SQLException e) {
      throw new SetupFailed("cannot create the database shop: " + e.getMessage(), e);
    }
  }

  private static Bus bus(Toa client, Optional<Servers> servers) {
    String name = servers.isPresent() ? "rabbitmq" : "embedded";
    Map<String, String> settings = servers.map(s -> Map.of("url", s.broker(0))).orElse(Map.of());
    for (BusProvider provider : ServiceLoader.load(BusProvider.class)) {
      if (provider.name().equals(name))
        return provider.open(new BusSettings(client.state(), settings, Clock.systemUTC()));
    }
    throw new SetupFailed("no " + name + " bus on the class path", null);
  }

  private static void killAll(Hosts hosts) {
    if (hosts == null) return;
    try {
      hosts.killAll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new java.util.HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) options.put(args[i], args[i + 1]);
    return options;
  }
}
