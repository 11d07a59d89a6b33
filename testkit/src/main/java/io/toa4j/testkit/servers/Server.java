package io.toa4j.testkit.servers;

import java.nio.file.Path;

/**
 * What a test may need from the machine beyond the JVM, at the addresses the tests themselves use:
 * the variable's URL, else the local default. The tests connect with {@link #url(String)} and its
 * kin, made from the URL the probe looked at, never with an address of their own.
 */
public enum Server {
  /**
   * A running PostgreSQL: {@code TOA_POSTGRES_URL}, else {@code
   * jdbc:postgresql://127.0.0.1:5432/test?user=postgres}.
   */
  POSTGRES(
      "PostgreSQL",
      "TOA_POSTGRES_URL",
      "on Debian: apt-get install postgresql; pg_ctlcluster <version> main start; su postgres -c 'createdb test';"
          + " trust authentication"),

  /**
   * A running MariaDB: {@code TOA_MARIADB_URL}, else {@code
   * jdbc:mariadb://127.0.0.1:3306/test?user=root}.
   */
  MARIADB(
      "MariaDB",
      "TOA_MARIADB_URL",
      "on Debian: apt-get install mariadb-server; start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd;"
          + " user root without a password"),

  /**
   * A running RabbitMQ: {@code TOA_RABBITMQ_URL}, else {@code amqp://guest:guest@127.0.0.1:5672}.
   */
  RABBITMQ(
      "RabbitMQ",
      "TOA_RABBITMQ_URL",
      "on Debian: apt-get install rabbitmq-server; rabbitmq-server -detached; user guest, password guest"),

  /**
   * PostgreSQL's server programs ({@code pg_config --bindir} with {@code initdb} and {@code pg_ctl}
   * in it), for a cluster of a test's own ({@link io.toa4j.testkit.postgres.PostgresCluster}); no
   * server need be running.
   */
  POSTGRES_PROGRAMS(
      "PostgreSQL's server programs",
      null,
      "on Debian: apt-get install postgresql; pg_config must be on the PATH"),

  /**
   * {@code rabbitmqctl} over the RabbitMQ of {@link #RABBITMQ}, for the tests that make virtual
   * hosts or restart the broker ({@link io.toa4j.testkit.rabbitmq.VirtualHosts}): the broker's
   * address must name this machine (127.0.0.1, localhost or ::1), since rabbitmqctl controls the
   * broker it runs beside, and rabbitmqctl must be on the PATH. Whether the broker answers is
   * {@link #RABBITMQ}'s to say.
   */
  RABBITMQ_CONTROL(
      "rabbitmqctl beside RabbitMQ",
      null,
      "on Debian: apt-get install rabbitmq-server; rabbitmqctl is in /usr/sbin"),

  /**
   * A headless browser for the tests that drive a page: Debian's Chromium at {@link #chromium()}
   * and its WebDriver at {@link #chromedriver()}, the paths the tests start them from (so nothing
   * looks for a browser or a driver on the network).
   */
  CHROMIUM(
      "Chromium and chromedriver", null, "on Debian: apt-get install chromium chromium-driver"),

  /**
   * Network namespaces and veth pairs, for a host of a test's own whose link can be dropped ({@link
   * io.toa4j.testkit.net.NetworkHost}): the JVM runs as root and {@code ip} (iproute2) is on the
   * PATH.
   */
  NETWORK_NAMESPACES(
      "Network namespaces (root and ip)",
      null,
      "run the tests as root; on Debian: apt-get install iproute2");

  private final String title;
  private final String variable;
  private final String install;

  Server(String title, String variable, String install) {
    this.title = title;
    this.variable = variable;
    this.install = install;
  }

  /** Its name in messages, such as {@code PostgreSQL}. */
  public String title() {
    return title;
  }

  /**
   * The URL the tests use: the variable's, password and all, else the local default; for {@link
   * #POSTGRES} and {@link #MARIADB} a JDBC URL, for {@link #RABBITMQ} an AMQP URL.
   *
   * @throws IllegalArgumentException for what has no URL, such as {@link #POSTGRES_PROGRAMS}
   */
  public String url() {
    return Address.url(this, System.getenv());
  }

  /**
   * {@link #url()} with the database (PostgreSQL, MariaDB) or the virtual host (RabbitMQ) {@code
   * name} in place of its own, the rest kept: where a test's database or virtual host of its own
   * is.
   */
  public String url(String name) {
    return Address.url(this, System.getenv(), name, null);
  }

  /**
   * {@link #url(String)} through a proxy on this machine's loopback {@code port}, such as a {@link
   * io.toa4j.testkit.net.TcpProxy} to {@link #host()} and {@link #port()}.
   */
  public String url(String name, int port) {
    return Address.url(this, System.getenv(), name, "127.0.0.1:" + port);
  }

  /** The host of {@link #url()}, as its client reads it. */
  public String host() {
    return Address.of(this, System.getenv()).host();
  }

  /** The port of {@link #url()}, as its client reads it. */
  public int port() {
    return Address.of(this, System.getenv()).port();
  }

  /** Whether {@link #url()} names this machine: 127.0.0.1, localhost or ::1. */
  public boolean local() {
    return Address.of(this, System.getenv()).local();
  }

  /** What to do when it is missing, in short: {@code start it, or set TOA_POSTGRES_URL}. */
  String hint() {
    return switch (this) {
      case POSTGRES, MARIADB, RABBITMQ -> "start it, or set " + variable;
      case POSTGRES_PROGRAMS -> "install them";
      case RABBITMQ_CONTROL ->
          "run them where the broker and rabbitmqctl are, or set "
              + RABBITMQ.variable
              + " to a broker on this machine";
      case CHROMIUM -> "install them";
      case NETWORK_NAMESPACES -> "run them as root with iproute2 installed";
    };
  }

  /** What to do when it is missing: how to start or install it, and the variable that moves it. */
  String remedy() {
    return switch (this) {
      case POSTGRES, MARIADB, RABBITMQ ->
          "Start it (" + install + "), or set " + variable + " to one that answers.";
      case POSTGRES_PROGRAMS -> "Install them (" + install + ").";
      case RABBITMQ_CONTROL ->
          "Run these tests on the machine of the broker, with rabbitmqctl on the PATH ("
              + install
              + "), or set "
              + RABBITMQ.variable
              + " to a broker on this machine.";
      case CHROMIUM -> "Install them (" + install + ").";
      case NETWORK_NAMESPACES -> "Run these tests as root, with iproute2 (" + install + ").";
    };
  }

  /** Where {@link #CHROMIUM}'s browser is: Debian's {@code /usr/bin/chromium}. */
  public static Path chromium() {
    return Path.of("/usr/bin/chromium");
  }

  /** Where {@link #CHROMIUM}'s WebDriver is: Debian's {@code /usr/bin/chromedriver}. */
  public static Path chromedriver() {
    return Path.of("/usr/bin/chromedriver");
  }

  /** The environment variable holding its URL; null when it has no address. */
  String variable() {
    return variable;
  }
}
