package io.toa4j.testkit.servers;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Looks for each server once and remembers the answer, so a run asks the machine once however many
 * tests need the server: a TCP connection to its address for a running server, {@code pg_config}
 * for PostgreSQL's programs, the broker's address and the PATH for rabbitmqctl. A server found
 * missing is announced at once with a banner, unless the run requires the servers (its tests then
 * fail, saying the same).
 */
final class Probe {
  /**
   * Long enough for a server on another machine of the network; a closed local port says no at
   * once.
   */
  static final Duration CONNECT = Duration.ofSeconds(1);

  static final Duration PROGRAM = Duration.ofSeconds(10);

  private final Map<String, String> environment;
  private final PrintStream loud;
  private final Map<Server, Optional<String>> absences = new ConcurrentHashMap<>();

  /**
   * @param environment where the servers' variables and {@code TOA_REQUIRE_SERVERS} are read
   * @param loud where a missing server is announced
   */
  Probe(Map<String, String> environment, PrintStream loud) {
    this.environment = Map.copyOf(environment);
    this.loud = loud;
  }

  /** Whether tests that need a missing server fail rather than being skipped. */
  boolean requiresServers() {
    String value = environment.get(ServerCondition.REQUIRE);
    return value != null && !value.isBlank();
  }

  /**
   * What is missing, such as "PostgreSQL does not answer at 127.0.0.1:5432, the default"; empty
   * when it is there.
   */
  Optional<String> absence(Server server) {
    return absences.computeIfAbsent(server, s -> announced(s, look(s)));
  }

  private Optional<String> announced(Server server, Optional<String> absence) {
    if (absence.isPresent() && !requiresServers()) {
      Banner.print(
          loud,
          List.of(
              ServerCondition.NOT_RUN + absence.get(),
              "The tests that need it are skipped; the list comes again at the end of the run.",
              server.remedy(),
              ServerCondition.REQUIRE + "=1 makes them fail instead, as CI does."));
    }
    return absence;
  }

  private Optional<String> look(Server server) {
    if (server == Server.POSTGRES_PROGRAMS) return programs();
    if (server == Server.RABBITMQ_CONTROL) return control();
    if (server == Server.CHROMIUM) return browser();
    if (server == Server.NETWORK_NAMESPACES) return namespaces();
    Address address = Address.of(server, environment);
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(address.host(), address.port()), (int) CONNECT.toMillis());
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(
          server.title() + " does not answer at " + address + ", " + address.source());
    }
  }

  /** rabbitmqctl controls the broker it runs beside: the tests' broker must be on this machine. */
  private Optional<String> control() {
    Address broker = Address.of(Server.RABBITMQ, environment);
    if (!broker.local()) {
      return Optional.of(
          "rabbitmqctl cannot control RabbitMQ at "
              + broker
              + ", "
              + broker.source()
              + ": it controls only a broker on this machine");
    }
    for (String folder : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, "rabbitmqctl")))
        return Optional.empty();
    }
    return Optional.of(
        "there is no rabbitmqctl on the PATH to control RabbitMQ at "
            + broker
            + ", "
            + broker.source());
  }

  /**
   * Root, as making namespaces and moving interfaces needs, and iproute2's {@code ip} on the PATH.
   */
  private Optional<String> namespaces() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return Optional.of(
          Server.NETWORK_NAMESPACES.title()
              + " need root, and the tests run as "
              + System.getProperty("user.name"));
    }
    for (String folder : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, "ip"))) return Optional.empty();
    }
    return Optional.of(
        Server.NETWORK_NAMESPACES.title() + " need iproute2: there is no ip on the PATH");
  }

  private static Optional<String> browser() {
    for (Path program : List.of(Server.chromium(), Server.chromedriver())) {
      if (!Files.isExecutable(program))
        return Optional.of(Server.CHROMIUM.title() + " are not installed: there is no " + program);
    }
    return Optional.empty();
  }

  private static Optional<String> programs() {
    String missing = Server.POSTGRES_PROGRAMS.title() + " are not installed";
    try {
      Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      if (!p.waitFor(PROGRAM.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of(
            missing + ": pg_config --bindir did not finish in " + PROGRAM.toSeconds() + " s");
      }
      if (p.exitValue() != 0)
        return Optional.of(missing + ": pg_config --bindir failed (" + p.exitValue() + "): " + out);
      for (String program : new String[] {"initdb", "pg_ctl"}) {
        if (!Files.isExecutable(Path.of(out, program))) {
          return Optional.of(
              missing + ": there is no " + program + " in " + out + " (pg_config --bindir)");
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(missing + ": there is no pg_config on the PATH");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(missing + ": interrupted while running pg_config --bindir");
    }
  }
}
