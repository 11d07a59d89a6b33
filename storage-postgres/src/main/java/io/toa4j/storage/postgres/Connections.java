package io.toa4j.storage.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The storage's connections: HikariCP's pool behind a fair gate of as many permits as the pool
 * has connections, so that the threads beyond them wait their turn parked, in the order they
 * came, rather than inside the pool.
 *
 * <p>A connection given back while threads wait inside HikariCP is handed over with the giver
 * spinning ({@code Thread.yield}) until a waiter takes it; with more callers than connections —
 * a process's callers, receivers and publisher on ten connections — that spinning took a tenth of
 * the callers' processor time, and waiters were served in no particular order. Past the gate, a
 * thread finds a connection idle, or one being replaced after a loss. Thread-safe.
 */
final class Connections {
  private final HikariDataSource pool;
  private final Semaphore gate;
  private final long timeoutMillis;

  /** @param pool opened, with its maximum size and connection timeout set, neither to change */
  Connections(HikariDataSource pool) {
    this.pool = pool;
    this.gate = new Semaphore(pool.getMaximumPoolSize(), true);
    this.timeoutMillis = pool.getConnectionTimeout();
  }

  /**
   * Runs the work on a connection of the pool, taken for its duration.
   *
   * @throws SQLException what the work or the pool threw; {@link SQLTransientConnectionException}
   *     when every connection stayed in use for the pool's connection timeout
   */
  <T> T run(Work<T> work) throws SQLException {
    try {
      if (!gate.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new SQLTransientConnectionException(pool.getPoolName() + " - every one of its " + pool.getMaximumPoolSize()
            + " connections stayed in use for " + timeoutMillis + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException(pool.getPoolName() + " - interrupted while waiting for a connection", e);
    }
    try (Connection c = pool.getConnection()) {
      return work.run(c);
    } finally {
      gate.release();
    }
  }

  /** What runs on a connection. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }
}
