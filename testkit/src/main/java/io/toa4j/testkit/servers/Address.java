package io.toa4j.testkit.servers;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a server should answer, read from its URL as its client reads it: the host and port, never
 * the user or the password, and where the URL came from, for messages. The URLs the tests connect
 * with are made here as well, from the same URL, so that the tests go where the probe looked.
 *
 * @param source where the URL came from: {@code from TOA_POSTGRES_URL}, or {@code the default}
 */
record Address(String host, int port, String source) {
  /** The database test, logging in as postgres: the postgres storage's default. */
  static final String POSTGRES_DEFAULT = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  /** The database test, logging in as root: the mariadb storage's default. */
  static final String MARIADB_DEFAULT = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

  /** User guest, password guest: the rabbitmq bus's default. */
  static final String RABBITMQ_DEFAULT = "amqp://guest:guest@127.0.0.1:5672";

  /** The hosts that name this machine. */
  private static final Set<String> LOCAL = Set.of("127.0.0.1", "localhost", "::1", "[::1]");

  private static final String JDBC = "jdbc:postgresql:";
  private static final String MARIADB_JDBC = "jdbc:mariadb:";

  /** The server's address from its variable, else its default; only servers with a URL have one. */
  static Address of(Server server, Map<String, String> environment) {
    String url = url(server, environment);
    String source = source(server, environment);
    return switch (server) {
      case POSTGRES -> postgres(url, source);
      case MARIADB -> jdbc(Jdbc.of(url, source, MARIADB_JDBC, MARIADB_DEFAULT), 3306, source);
      default -> rabbitmq(url, source);
    };
  }

  /** The server's URL as its variable says, password and all, else its default. */
  static String url(Server server, Map<String, String> environment) {
    if (set(server, environment)) return environment.get(server.variable()).strip();
    return switch (server) {
      case POSTGRES -> POSTGRES_DEFAULT;
      case MARIADB -> MARIADB_DEFAULT;
      case RABBITMQ -> RABBITMQ_DEFAULT;
      case POSTGRES_PROGRAMS, RABBITMQ_CONTROL, CHROMIUM, NETWORK_NAMESPACES ->
          throw new IllegalArgumentException("There is no URL for " + server.title());
    };
  }

  /**
   * The server's URL with the database or virtual host {@code name} in place of the one written,
   * everything else kept: user, password, parameters.
   *
   * @param at {@code host:port} to connect to instead of the URL's, such as a proxy's; null for the
   *     URL's
   */
  static String url(Server server, Map<String, String> environment, String name, String at) {
    String url = url(server, environment);
    String source = source(server, environment);
    return switch (server) {
      case POSTGRES -> postgresUrl(url, source, name, at);
      case MARIADB ->
          jdbcUrl(Jdbc.of(url, source, MARIADB_JDBC, MARIADB_DEFAULT), MARIADB_JDBC, name, at);
      default -> rabbitmqUrl(url, source, name, at);
    };
  }

  private static boolean set(Server server, Map<String, String> environment) {
    String value = server.variable() == null ? null : environment.get(server.variable());
    return value != null && !value.isBlank();
  }

  private static String source(Server server, Map<String, String> environment) {
    return set(server, environment) ? "from " + server.variable() : "the default";
  }

  /**
   * A JDBC URL as the PostgreSQL driver reads it: {@code jdbc:postgresql:db} and an empty host are
   * localhost, the port is 5432 unless written, and of several hosts the first is tried first.
   */
  static Address postgres(String url, String source) {
    return jdbc(Jdbc.of(url, source, JDBC, POSTGRES_DEFAULT), 5432, source);
  }

  /**
   * The first host of a JDBC URL, localhost when it names none, on the engine's port unless
   * written.
   */
  private static Address jdbc(Jdbc jdbc, int fallback, String source) {
    String hosts = jdbc.hosts();
    if (hosts == null) return new Address("localhost", fallback, source);
    String first = hosts.split(",", 2)[0];
    int colon = first.lastIndexOf(':');
    if (colon < 0 || first.endsWith("]"))
      return new Address(first.isEmpty() ? "localhost" : first, fallback, source);
    String host = first.substring(0, colon);
    return new Address(
        host.isEmpty() ? "localhost" : host, port(first.substring(colon + 1), source), source);
  }

  /** The JDBC URL of another database of the same server (or of {@code at}, when not null). */
  static String postgresUrl(String url, String source, String database, String at) {
    return jdbcUrl(Jdbc.of(url, source, JDBC, POSTGRES_DEFAULT), JDBC, database, at);
  }

  private static String jdbcUrl(Jdbc jdbc, String prefix, String database, String at) {
    String hosts = at != null ? at : jdbc.hosts();
    return prefix + (hosts == null ? "" : "//" + hosts + "/") + database + jdbc.parameters();
  }

  /**
   * A JDBC URL's parts around its database.
   *
   * @param hosts what stands between {@code //} and the database; null when there is no {@code //}
   * @param parameters {@code ?} and what follows, else empty
   */
  private record Jdbc(String hosts, String parameters) {
    static Jdbc of(String url, String source, String prefix, String example) {
      if (!url.startsWith(prefix)) {
        throw new IllegalArgumentException(
            "The URL "
                + source
                + " must be a JDBC URL such as "
                + example
                + "; it does not start with "
                + prefix);
      }
      String rest = url.substring(prefix.length());
      String hosts = null;
      if (rest.startsWith("//")) {
        hosts = rest.substring(2).split("[/?]", 2)[0];
        rest = rest.substring(2 + hosts.length());
      }
      int question = rest.indexOf('?');
      return new Jdbc(hosts, question < 0 ? "" : rest.substring(question));
    }
  }

  /**
   * An AMQP URL as the RabbitMQ client reads it: localhost unless written, port 5672 (5671 for
   * amqps).
   */
  static Address rabbitmq(String url, String source) {
    URI uri = amqp(url, source);
    int fallback = "amqps".equalsIgnoreCase(uri.getScheme()) ? 5671 : 5672;
    String host = uri.getHost() == null || uri.getHost().isEmpty() ? "localhost" : uri.getHost();
    return new Address(host, uri.getPort() < 0 ? fallback : uri.getPort(), source);
  }

  /** The AMQP URL of another virtual host of the same broker (or of {@code at}, when not null). */
  static String rabbitmqUrl(String url, String source, String virtualHost, String at) {
    URI uri = amqp(url, source);
    String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
    int login = authority.lastIndexOf('@') + 1;
    String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
    return uri.getScheme()
        + "://"
        + authority.substring(0, login)
        + (at != null ? at : authority.substring(login))
        + "/"
        + virtualHost
        + query;
  }

  private static URI amqp(String url, String source) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "The URL "
              + source
              + " is not a URL such as "
              + RABBITMQ_DEFAULT
              + " ("
              + e.getReason()
              + ")");
    }
    if (!"amqp".equalsIgnoreCase(uri.getScheme()) && !"amqps".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException(
          "The URL " + source + " must be an AMQP URL such as " + RABBITMQ_DEFAULT);
    }
    return uri;
  }

  private static int port(String text, String source) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65_535) return port;
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(
        "The URL " + source + " names the port '" + text + "', which is not from 1 to 65535");
  }

  /** Whether the host names this machine: 127.0.0.1, localhost or ::1. */
  boolean local() {
    return LOCAL.contains(host.toLowerCase(Locale.ROOT));
  }

  /** {@code host:port}, as messages show it. */
  @Override
  public String toString() {
    return host + ":" + port;
  }
}
