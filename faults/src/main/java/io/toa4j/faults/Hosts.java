package io.toa4j.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@code toa run} processes of the run, each started by {@code bin/toa} (which execs the JVM,
 * so a process's pid is its JVM's and SIGKILL reaches it at once), in its network namespace when it
 * has one. Each start is timed from the launch to the log line that says the process serves.
 * Thread-safe for the run's use: starts and kills come from the fault thread; the times are read at
 * the end.
 */
final class Hosts {
  /** A process of the run: what it hosts and where. */
  record Host(
      int number,
      List<String> components,
      Optional<String> namespace,
      Map<String, String> environment) {
    String name() {
      return "host "
          + number
          + " ("
          + (components.isEmpty() ? "every component" : String.join(", ", components))
          + ")";
    }
  }

  /** One start: how long from launch to serving, or empty when it died first. */
  record Start(Host host, long pid, Optional<Long> millisToServing) {}

  private final Path repository;
  private final Path context;
  private final Path logs;
  private final List<Host> hosts;
  private final Process[] running;
  private final ConcurrentLinkedQueue<Start> starts = new ConcurrentLinkedQueue<>();
  private int launches;

  Hosts(Path repository, Path context, Path logs, List<Host> hosts) {
    this.repository = repository;
    this.context = context;
    this.logs = logs;
    this.hosts = List.copyOf(hosts);
    this.running = new Process[hosts.size()];
  }

  List<Host> hosts() {
    return hosts;
  }

  /** The repository whose {@code bin/toa} starts the processes. */
  Path repository() {
    return repository;
  }

  /** Starts the host's process and returns without waiting for it to serve. */
  synchronized Process launch(Host host) {
    List<String> command = new ArrayList<>();
    host.namespace().ifPresent(ns -> command.addAll(List.of("ip", "netns", "exec", ns)));
    command.addAll(
        List.of(
            repository.resolve("bin/toa").toString(),
            "--context",
            context.toString(),
            "run",
            "--http",
            "127.0.0.1:0"));
    command.addAll(host.components());
    Path err = logs.resolve("host-" + host.number() + "-" + (launches++) + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(err.toFile());
    builder.environment().putAll(host.environment());
    builder.environment().put("TOA_NO_BUILD", "1");
    try {
      Process process = builder.start();
      running[hosts.indexOf(host)] = process;
      Files.writeString(
          logs.resolve("pids"),
          process.pid() + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      watch(host, process, err);
      return process;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + host.name() + ": " + e.getMessage(), e);
    }
  }

  /** Starts the host's process and waits until it serves, at most {@code seconds}. */
  boolean launchAndAwait(Host host, long seconds) throws InterruptedException {
    launch(host);
    return awaitServing(host, seconds);
  }

  /** Waits until the host's current process serves; false when it died or the time ran out. */
  boolean awaitServing(Host host, long seconds) throws InterruptedException {
    Process process = running[hosts.indexOf(host)];
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      for (Start start : starts) {
        if (start.host() == host
            && start.pid() == process.pid()
            && start.millisToServing().isPresent()) return true;
      }
      if (!process.isAlive()) return false;
      Thread.sleep(20);
    }
    return false;
  }

  /** SIGKILL of the host's current process, waiting until it is gone. */
  synchronized void kill(Host host) throws InterruptedException {
    Process process = running[hosts.indexOf(host)];
    if (process == null) return;
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** Whether the host's current process is alive. */
  synchronized boolean alive(Host host) {
    Process process = running[hosts.indexOf(host)];
    return process != null && process.isAlive();
  }

  /** Every start so far, those that reached serving and those killed before. */
  List<Start> starts() {
    return List.copyOf(starts);
  }

  /** SIGKILL of every process, at the end of the run. */
  void killAll() throws InterruptedException {
    for (Host host : hosts) kill(host);
  }

  /**
   * Follows the process's log until it says it serves (distributed: "pid N hosts", embedded: "is
   * served by pid N") or the process ends. The start is keyed by the pid, which {@code bin/toa}
   * keeps.
   */
  private void watch(Host host, Process process, Path log) {
    long launched = System.nanoTime();
    String distributed = "pid " + process.pid() + " hosts ";
    String embedded = "is served by pid " + process.pid();
    Thread watcher =
        new Thread(
            () -> {
              try {
                while (process.isAlive()) {
                  String text = Files.exists(log) ? Files.readString(log) : "";
                  if (text.contains(distributed) || text.contains(embedded)) {
                    starts.add(
                        new Start(
                            host,
                            process.pid(),
                            Optional.of((System.nanoTime() - launched) / 1_000_000)));
                    return;
                  }
                  Thread.sleep(10);
                }
                starts.add(new Start(host, process.pid(), Optional.empty()));
              } catch (IOException e) {
                starts.add(new Start(host, process.pid(), Optional.empty()));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "watch-" + process.pid());
    watcher.setDaemon(true);
    watcher.start();
  }
}
