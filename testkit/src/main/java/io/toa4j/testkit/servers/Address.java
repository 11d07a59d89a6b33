package io.toa4j.testkit.servers;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * Where a server should answer, read from its URL as its client reads it: the host and port,
 * never the user or the password, and where the URL came from, for messages.
 *
 * @param source where the URL came from: {@code from TOA_POSTGRES_URL}, or {@code the default}
 */
record Address(String host, int port, String source) {
  static final String POSTGRES_DEFAULT = "jdbc:postgresql://127.0.0.1:5432/test";
  static final String RABBITMQ_DEFAULT = "amqp://127.0.0.1:5672";
  private static final String JDBC = "jdbc:postgresql:";

  /** The server's address from its variable, else its default; only servers with a URL have one. */
  static Address of(Server server, Map<String, String> environment) {
    String value = environment.get(server.variable());
    boolean set = value != null && !value.isBlank();
    String url = set ? value.strip() : server == Server.POSTGRES ? POSTGRES_DEFAULT : RABBITMQ_DEFAULT;
    String source = set ? "from " + server.variable() : "the default";
    return switch (server) {
      case POSTGRES -> postgres(url, source);
      case RABBITMQ -> rabbitmq(url, source);
      case POSTGRES_PROGRAMS -> throw new IllegalArgumentException(server.title() + " have no address");
    };
  }

  /**
   * A JDBC URL as the PostgreSQL driver reads it: {@code jdbc:postgresql:db} and an empty host are
   * localhost, the port is 5432 unless written, and of several hosts the first is tried first.
   */
  static Address postgres(String url, String source) {
    if (!url.startsWith(JDBC)) {
      throw new IllegalArgumentException(
          "The URL " + source + " must be a JDBC URL such as " + POSTGRES_DEFAULT + "; it does not start with " + JDBC);
    }
    String rest = url.substring(JDBC.length());
    if (!rest.startsWith("//")) return new Address("localhost", 5432, source);
    String hosts = rest.substring(2).split("[/?]", 2)[0];
    String first = hosts.split(",", 2)[0];
    int colon = first.lastIndexOf(':');
    if (colon < 0 || first.endsWith("]")) return new Address(first.isEmpty() ? "localhost" : first, 5432, source);
    String host = first.substring(0, colon);
    return new Address(host.isEmpty() ? "localhost" : host, port(first.substring(colon + 1), source), source);
  }

  /** An AMQP URL as the RabbitMQ client reads it: localhost unless written, port 5672 (5671 for amqps). */
  static Address rabbitmq(String url, String source) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("The URL " + source + " is not a URL such as " + RABBITMQ_DEFAULT + " (" + e.getReason() + ")");
    }
    if (!"amqp".equalsIgnoreCase(uri.getScheme()) && !"amqps".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException("The URL " + source + " must be an AMQP URL such as " + RABBITMQ_DEFAULT);
    }
    int fallback = "amqps".equalsIgnoreCase(uri.getScheme()) ? 5671 : 5672;
    String host = uri.getHost() == null || uri.getHost().isEmpty() ? "localhost" : uri.getHost();
    return new Address(host, uri.getPort() < 0 ? fallback : uri.getPort(), source);
  }

  private static int port(String text, String source) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65_535) return port;
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("The URL " + source + " names the port '" + text + "', which is not from 1 to 65535");
  }

  /** {@code host:port}, as messages show it. */
  @Override
  public String toString() {
    return host + ":" + port;
  }
}
