package io.toa4j.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The run's own PostgreSQL cluster, RabbitMQ node and network links, acted on through {@code
 * faults/servers}, which set them up ({@code servers.env} in the run folder says where they are).
 */
final class Servers {
  private final Path script;
  private final Path dir;
  private final Properties env = new Properties();

  Servers(Path repository, Path dir) throws IOException {
    this.script = repository.resolve("faults/servers");
    this.dir = dir;
    try (var in = Files.newBufferedReader(dir.resolve("servers.env"))) {
      env.load(in);
    }
  }

  int hosts() {
    return Integer.parseInt(env.getProperty("hosts"));
  }

  /**
   * The JDBC URL of the run's database, from the root namespace or from host {@code n}'s (0: root).
   */
  String database(int n) {
    return "jdbc:postgresql://"
        + address(n, 1)
        + ":"
        + env.getProperty("pg_port")
        + "/shop?user=postgres";
  }

  /**
   * The AMQP URL of the run's broker, from the root namespace or from host {@code n}'s (0: root).
   */
  String broker(int n) {
    return "amqp://guest:guest@" + address(n, 3) + ":" + env.getProperty("mq_port");
  }

  private String address(int n, int last) {
    return n == 0 ? "127.0.0.1" : env.getProperty("net_" + n) + "." + last;
  }

  /** The network namespace of host {@code n} (from 1), this run's own. */
  String namespace(int n) {
    return env.getProperty("namespace_" + n);
  }

  /**
   * The environment of a process that runs the shop on these servers, from host {@code n}'s
   * namespace.
   */
  Map<String, String> environment(int n) {
    return Map.of(
        "TOA_STORAGE",
        "postgres",
        "TOA_STORAGE_URL",
        database(n),
        "TOA_BUS",
        "rabbitmq",
        "TOA_BUS_URL",
        broker(n));
  }

  void postgres(String... args) throws IOException, InterruptedException {
    run("postgres", args);
  }

  void rabbitmq(String... args) throws IOException, InterruptedException {
    run("rabbitmq", args);
  }

  void cut(int host, String from) throws IOException, InterruptedException {
    run("cut", String.valueOf(host), from);
  }

  void heal(int host) throws IOException, InterruptedException {
    run("heal", String.valueOf(host));
  }

  private void run(String command, String... args) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of(script.toString(), dir.toString(), command));
    line.addAll(List.of(args));
    Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", line) + " failed: " + out.strip());
    }
  }
}
