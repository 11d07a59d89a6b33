package io.toa4j.testkit.postgres;

import io.toa4j.testkit.net.NetworkHost;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.os.Commands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of a test's own — initdb in a temporary directory, a free loopback port,
 * trust authentication — so a test can restart or stop the server without touching the one other
 * tests use. It is on this machine whatever {@code TOA_POSTGRES_URL} says, and its URLs are its own
 * ({@link #url}). Needs the server's binaries ({@code pg_config --bindir}, which a test asks for
 * with {@code @Needs(Server.POSTGRES_PROGRAMS)}); when the JVM runs as root, the server runs as the
 * {@code postgres} user, as PostgreSQL requires.
 *
 * <p>{@link #startOn} runs it on a {@link NetworkHost} instead, listening on the host's address, so
 * that a test can drop the link between its process and the server for real.
 */
public final class PostgresCluster implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 120;

  private final Path bin;
  private final Path data;
  private final int port;
  private final boolean asPostgres;
  private final Optional<NetworkHost> host;

  private PostgresCluster(
      Path bin, Path data, int port, boolean asPostgres, Optional<NetworkHost> host) {
    this.bin = bin;
    this.data = data;
    this.port = port;
    this.asPostgres = asPostgres;
    this.host = host;
  }

  /** Creates and starts a cluster; fails saying what is missing when it cannot. */
  public static PostgresCluster start() {
    return start(Optional.empty());
  }

  /**
   * Creates and starts a cluster in the host's network namespace, listening on its address and
   * trusting connections from this process's end of the link and from the host itself (a {@code
   * psql} run there with {@link NetworkHost#exec} looks on while the link is dropped).
   */
  public static PostgresCluster startOn(NetworkHost host) {
    return start(Optional.of(host));
  }

  private static PostgresCluster start(Optional<NetworkHost> host) {
    Path bin = Path.of(output(List.of("pg_config", "--bindir")).strip());
    boolean root = "root".equals(System.getProperty("user.name"));
    try {
      Path data =
          Files.createTempDirectory(
              "toa-pg-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      if (root) output(List.of("chown", "postgres:postgres", data.toString()));
      PostgresCluster cluster = new PostgresCluster(bin, data, TcpProxy.freePort(), root, host);
      cluster.pg(
          "initdb",
          "-D",
          data.toString(),
          "-U",
          "postgres",
          "-A",
          "trust",
          "--no-sync",
          "-E",
          "UTF8");
      if (host.isPresent()) {
        String trusted =
            "host all all "
                + host.get().peer()
                + "/32 trust\nhost all all "
                + host.get().address()
                + "/32 trust\n";
        Files.writeString(data.resolve("pg_hba.conf"), trusted, StandardOpenOption.APPEND);
      }
      cluster.ctl("start");
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot make a directory for a test PostgreSQL cluster", e);
    }
  }

  public int port() {
    return port;
  }

  /** Where it listens: 127.0.0.1, or the address of the host it runs on. */
  public String address() {
    return host.map(NetworkHost::address).orElse("127.0.0.1");
  }

  /** The JDBC URL of a database of this cluster, logging in as postgres. */
  public String url(String database) {
    return "jdbc:postgresql://" + address() + ":" + port + "/" + database + "?user=postgres";
  }

  /** Creates a database in it. */
  public void createDatabase(String name) {
    try (Connection c = DriverManager.getConnection(url("postgres"));
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot create database " + name + " in the test cluster on port " + port, e);
    }
  }

  /** Stops the server at once (every connection is cut, as in a crash) and starts it again. */
  public void restart() {
    ctl("-m", "immediate", "restart");
  }

  @Override
  public void close() {
    try {
      ctl("-m", "immediate", "stop");
    } finally {
      try (Stream<Path> files = Files.walk(data)) {
        for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator)
          Files.deleteIfExists(p);
      } catch (IOException e) {
        // a temporary directory: the system cleans it up in the end
      }
    }
  }

  private void ctl(String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "pg_ctl",
                "-D",
                data.toString(),
                "-w",
                "-t",
                String.valueOf(TIMEOUT_SECONDS),
                "-l",
                data.resolve("server.log").toString(),
                "-o",
                "-p "
                    + port
                    + " -c listen_addresses="
                    + address()
                    + " -k "
                    + data
                    + " -c fsync=on -c max_connections=60"));
    command.addAll(List.of(args));
    pg(command.toArray(String[]::new));
  }

  private void pg(String... args) {
    List<String> command = new ArrayList<>();
    if (asPostgres) command.addAll(List.of("runuser", "-u", "postgres", "--"));
    command.add(bin.resolve(args[0]).toString());
    command.addAll(List.of(args).subList(1, args.length));
    output(host.isPresent() ? host.get().command(command) : command);
  }

  private static String output(List<String> command) {
    return Commands.run(
        command,
        Duration.ofSeconds(TIMEOUT_SECONDS),
        "are PostgreSQL's server binaries installed?");
  }
}
