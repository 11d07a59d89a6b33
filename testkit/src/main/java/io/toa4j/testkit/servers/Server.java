package io.toa4j.testkit.servers;

/**
 * What a test may need from the machine beyond the JVM, at the addresses the tests themselves use:
 * the variable's URL, else the local default.
 */
public enum Server {
  /** A running PostgreSQL: {@code TOA_POSTGRES_URL}, else {@code jdbc:postgresql://127.0.0.1:5432/test}. */
  POSTGRES(
      "PostgreSQL",
      "TOA_POSTGRES_URL",
      "on Debian: apt-get install postgresql; pg_ctlcluster <version> main start; su postgres -c 'createdb test';"
          + " trust authentication"),

  /** A running RabbitMQ: {@code TOA_RABBITMQ_URL}, else {@code amqp://127.0.0.1:5672} (guest/guest). */
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
      "on Debian: apt-get install postgresql; pg_config must be on the PATH");

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

  /** What to do when it is missing, in short: {@code start it, or set TOA_POSTGRES_URL}. */
  String hint() {
    return variable == null ? "install them" : "start it, or set " + variable;
  }

  /** What to do when it is missing: how to start or install it, and the variable that moves it. */
  String remedy() {
    String start = variable == null ? "Install them (" + install + ")" : "Start it (" + install + ")";
    return variable == null ? start + "." : start + ", or set " + variable + " to one that answers.";
  }

  /** The environment variable holding its URL; null when it has no address. */
  String variable() {
    return variable;
  }
}
