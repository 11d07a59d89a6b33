package io.toa4j.storage.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.sql.Connections;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PostgreSQL database through one small connection pool, a schema per component in it.
 * Thread-safe; a component's schema is created and migrated the first time its store is asked for.
 */
final class PostgresStorage implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStorage.class);

  /**
   * Connections per storage: enough for a process's dispatchers and requests, few enough for many
   * processes.
   */

  /**
   * How long closing waits for the pool: more than HikariCP's own waits (ten seconds for its closer
   * to end), less than for good (see {@link Connections#close}).
   */
  private static final Duration CLOSING = Duration.ofSeconds(30);

  private final Server server;
  private final Failures failures;
  private final HikariDataSource pool;
  private final Connections connections;
  private final ConcurrentMap<String, PostgresStore> stores = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private PostgresStorage(Server server, HikariDataSource pool) {
    this.server = server;
    this.failures = new Failures(server, () -> evictAll(pool));
    this.pool = pool;
    this.connections = connections(pool);
  }

  /** The pool behind its gate, an unreachable server judged as {@link Failures} judges it. */
  static Connections connections(HikariDataSource pool) {
    return new Connections(
        pool,
        new Connections.Pool(
            pool.getPoolName(),
            pool.getMaximumPoolSize(),
            pool.getConnectionTimeout(),
            "PostgreSQL",
            Failures::isUnreachable,
            pool::evictConnection));
  }

  /**
   * Closes the pool's idle connections and marks those in use to close when they come back.
   * HikariCP drops a connection found lost, but hands out one used less than half a second ago
   * without checking it; once the server is back, those cut with the lost one would fail the next
   * transactions one by one, each a new outage to the caller.
   */
  private static void evictAll(HikariDataSource pool) {
    HikariPoolMXBean connections = pool.getHikariPoolMXBean();
    if (connections != null) connections.softEvictConnections();
  }

  /** Opens the pool, failing at once, with the URL tried, when the server cannot be reached. */
  static PostgresStorage open(Server server) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("toa4j-postgres");
    config.setJdbcUrl(server.url());
    server.user().ifPresent(config::setUsername);
    server.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(server.poolSize());
    config.setConnectionTimeout(8_000);
    server.timeouts().apply(config);
    try {
      return new PostgresStorage(server, new HikariDataSource(config));
    } catch (RuntimeException e) {
      throw new Failures(server).of("be reached (is it running, and does the database exist?)", e);
    }
  }

  @Override
  public Store store(String component) {
    Schema schema = Schema.of(component);
    if (closed)
      throw new IllegalStateException("The PostgreSQL storage at " + server + " is closed");
    return stores.computeIfAbsent(component, c -> migrate(schema));
  }

  private PostgresStore migrate(Schema schema) {
    try {
      int applied = connections.run(c -> Migrations.apply(c, schema));
      if (applied > 0)
        LOG.info("Migrated schema {} of {} by {} steps", schema.name(), server, applied);
      return new PostgresStore(schema, connections, failures);
    } catch (SQLException e) {
      throw failures.of(
          "create or migrate schema " + schema.name() + " of component " + schema.label(), e);
    }
  }

  /** Runs the work on a connection of the storage's pool, as its stores do; for tests. */
  <T> T withConnection(Connections.Work<T> work) throws SQLException {
    return connections.run(work);
  }

  @Override
  public boolean transactional() {
    return true;
  }

  @Override
  public String describe() {
    return "postgres at " + server;
  }

  @Override
  public void close() {
    closed = true;
    stores.clear();
    Connections.close(pool, pool.getPoolName(), CLOSING);
  }
}
