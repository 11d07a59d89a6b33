package io.toa4j.testkit.postgres;

import io.toa4j.testkit.net.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of a test's own — initdb in a temporary directory, a free loopback port,
 * trust authentication — so a test can restart or stop the server without touching the one other
 * tests use. It is on this machine whatever {@code TOA_POSTGRES_URL} says, and its URLs are its
 * own ({@link #url}). Needs the server's binaries ({@code pg_config --bindir}, which a test asks
 * for with {@code @Needs(Server.POSTGRES_PROGRAMS)}); when the JVM runs as root, the server runs
 * as the {@code postgres} user, as PostgreSQL requires.
 */
public final class PostgresCluster implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 120;

  private final Path bin;
  private final Path data;
  private final int port;
  private final boolean asPostgres;

  private PostgresCluster(Path bin, Path data, int port, boolean asPostgres) {
    this.bin = bin;
    this.data = data;
    this.port = port;
    this.asPostgres = asPostgres;
  }

  /** Creates and starts a cluster; fails saying what is missing when it cannot. */
  public static PostgresCluster start() {
    Path bin = Path.of(output(List.of("pg_config", "--bindir")).strip());
    boolean root = "root".equals(System.getProperty("user.name"));
    try {
      Path data = Files.createTempDirectory("toa-pg-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      if (root) output(List.of("chown", "postgres:postgres", data.toString()));
      PostgresCluster cluster = new PostgresCluster(bin, data, TcpProxy.freePort(), root);
      cluster.pg("initdb", "-D", data.toString(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8");
      cluster.ctl("start");
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot make a directory for a test PostgreSQL cluster", e);
    }
  }

  public int port() {
    return port;
  }

  /** The JDBC URL of a database of this cluster, logging in as postgres. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
  }

  /** Creates a database in it. */
  public void createDatabase(String name) {
    try (Connection c = DriverManager.getConnection(url("postgres")); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot create database " + name + " in the test cluster on port " + port, e);
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
        for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
      } catch (IOException e) {
        // a temporary directory: the system cleans it up in the end
      }
    }
  }

  private void ctl(String... args) {
    List<String> command = new ArrayList<>(List.of("pg_ctl", "-D", data.toString(), "-w", "-t", String.valueOf(TIMEOUT_SECONDS),
        "-l", data.resolve("server.log").toString(),
        "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -k " + data + " -c fsync=on -c max_connections=60"));
    command.addAll(List.of(args));
    pg(command.toArray(String[]::new));
  }

  private void pg(String... args) {
    List<String> command = new ArrayList<>();
    if (asPostgres) command.addAll(List.of("runuser", "-u", "postgres", "--"));
    command.add(bin.resolve(args[0]).toString());
    command.addAll(List.of(args).subList(1, args.length));
    output(command);
  }

  private static String output(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish in " + TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) throw new IllegalStateException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run " + command.get(0) + " (are PostgreSQL's server binaries installed?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + String.join(" ", command), e);
    }
  }
}
