package io.toa4j.faults;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The faults, one after another on the run's own thread, in cycles until the run's time is up; the
 * first cycle always ends. A cycle on the distributed engine holds each kind once, in a random
 * order: a SIGKILL of every process, one more killed while it recovers from a SIGKILL, the broker
 * and the database each restarted fast and immediately, and a process cut off from the broker, from
 * the database and from both. On the embedded engine a cycle is a SIGKILL of its one process and
 * one while it recovers. After each fault the next waits until calls are answered again.
 *
 * <p>A fault's window, which the longest stall beyond the faults leaves out, runs from its start
 * until what it took away is back: a killed process serving again, a restarted server listening, a
 * cut link healed.
 */
final class Faults {
  /** How long a process stays cut off; a longer run draws it between this and twice this. */
  static final Duration CUT = Duration.ofSeconds(8);

  /** How many calls must complete after a fault before the next. */
  private static final long CALLS_BETWEEN = 20;

  private final Hosts hosts;
  private final Optional<Servers> servers;
  private final Progress progress;
  private final PrintStream out;
  private final boolean longRun;
  private final long begun = System.nanoTime();
  private final Map<String, Integer> injected = new TreeMap<>();

  Faults(
      Hosts hosts, Optional<Servers> servers, Progress progress, PrintStream out, boolean longRun) {
    this.hosts = hosts;
    this.servers = servers;
    this.progress = progress;
    this.out = out;
    this.longRun = longRun;
  }

  /** Faults injected so far, by kind. */
  Map<String, Integer> injected() {
    return new TreeMap<>(injected);
  }

  /**
   * Injects faults in cycles until {@code end} (System.nanoTime()) is past, finishing the first
   * cycle whatever the time.
   */
  void run(long end) throws Exception {
    boolean first = true;
    while (first || System.nanoTime() < end) {
      for (Fault fault : cycle()) {
        if (!first && System.nanoTime() >= end) return;
        fault.inject();
        awaitCalls();
      }
      first = false;
    }
  }

  /** A fault, injected and healed. */
  private interface Fault {
    void inject() throws Exception;
  }

  /** Each kind of fault once, in a random order. */
  private List<Fault> cycle() {
    List<Fault> faults = new ArrayList<>();
    List<Hosts.Host> all = hosts.hosts();
    for (Hosts.Host host : all) faults.add(() -> sigkill(host));
    faults.add(() -> sigkillRecovering(any(all)));
    if (servers.isPresent()) {
      for (String mode : List.of("fast", "immediate")) {
        faults.add(
            () ->
                restart(
                    "broker restart " + mode,
                    () -> servers.get().rabbitmq("stop", mode),
                    () -> servers.get().rabbitmq("start")));
        faults.add(
            () ->
                restart(
                    "database restart " + mode,
                    () -> servers.get().postgres("stop", mode),
                    () -> servers.get().postgres("start")));
      }
      for (String from : List.of("broker", "database", "both"))
        faults.add(() -> cut(any(all), from));
    }
    Collections.shuffle(faults);
    return faults;
  }

  private static Hosts.Host any(List<Hosts.Host> hosts) {
    return hosts.get(ThreadLocalRandom.current().nextInt(hosts.size()));
  }

  private void sigkill(Hosts.Host host) throws Exception {
    long at = System.nanoTime();
    hosts.kill(host);
    hosts.launch(host);
    hosts.awaitServing(host, 120);
    count("SIGKILL", at, System.nanoTime(), host.name());
  }

  /**
   * Killed, started again, and killed again before it serves, at a moment drawn over the host's
   * last start (from a fifth of its time to serving to all of it, so that the second kill meets the
   * start's own work — its stores opened, the outbox swept, the consumers begun — however fast the
   * machine starts a JVM at the time); then started for good.
   */
  private void sigkillRecovering(Hosts.Host host) throws Exception {
    long at = System.nanoTime();
    long start = lastStart(host);
    hosts.kill(host);
    hosts.launch(host);
    Thread.sleep(ThreadLocalRandom.current().nextLong(start / 5, start + 1));
    long again = System.nanoTime();
    hosts.kill(host);
    hosts.launch(host);
    hosts.awaitServing(host, 120);
    count("SIGKILL", at, again, host.name());
    count("SIGKILL while recovering", again, System.nanoTime(), host.name());
  }

  /** The host's last time from launch to serving, in milliseconds; 900 before it served once. */
  private long lastStart(Hosts.Host host) {
    long last = 900;
    for (Hosts.Start s : hosts.starts()) {
      if (s.host() == host && s.millisToServing().isPresent()) last = s.millisToServing().get();
    }
    return last;
  }

  private void restart(String kind, Fault stop, Fault start) throws Exception {
    long at = System.nanoTime();
    stop.inject();
    start.inject();
    count(kind, at, System.nanoTime(), "");
  }

  private void cut(Hosts.Host host, String from) throws Exception {
    Duration cut =
        longRun ? CUT.plusMillis(ThreadLocalRandom.current().nextLong(CUT.toMillis())) : CUT;
    long at = System.nanoTime();
    servers.orElseThrow().cut(host.number(), from);
    Thread.sleep(cut.toMillis());
    servers.orElseThrow().heal(host.number());
    count(
        "partition from " + from,
        at,
        System.nanoTime(),
        host.name() + ", " + cut.toSeconds() + " s");
  }

  private void count(String kind, long from, long to, String what) {
    injected.merge(kind, 1, Integer::sum);
    progress.fault(kind, from, to);
    out.printf("%6.1f s  %s%s%s%n", (from - begun) / 1e9, kind, what.isEmpty() ? "" : ": ", what);
  }

  /** Waits until calls are answered again (at most a minute), then a moment more. */
  private void awaitCalls() throws InterruptedException {
    long target = progress.count() + CALLS_BETWEEN;
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (progress.count() < target && System.nanoTime() < deadline) Thread.sleep(50);
    Thread.sleep(1000);
  }
}
