package io.toa4j.storage.mariadb;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
  /**
   * How many works the server answered: ended, or failed with an answer of the server's (not a
   * lost connection). A wait at the gate that saw none answered met a server that answers nothing.
   */
  private final AtomicLong answered = new AtomicLong();

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
   *     when every connection stayed in use for the pool's connection timeout, an {@link
   *     Unanswered} one when the server answered none of their work meanwhile
   */
  <T> T run(Work<T> work) throws SQLException {
    long before = answered.get();
    try {
      if (!gate.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) throw exhausted(answered.get() - before);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException(pool.getPoolName() + " - interrupted while waiting for a connection", e);
    }
    try (Connection c = pool.getConnection()) {
      T result = work.run(c);
      answered.incrementAndGet();
      return result;
    } catch (SQLException e) {
      if (!Failures.isUnreachable(e)) answered.incrementAndGet(); // an error is an answer too; a lost connection is none
      throw e;
    } finally {
      gate.release();
    }
  }

  /**
   * The failure of a wait at the gate that ran out: {@link Unanswered} when the server answered no
   * work meanwhile, else an overload, the connections of the works it answered having gone to the
   * threads that waited before.
   */
  private SQLTransientConnectionException exhausted(long answers) {
    String full = pool.getPoolName() + " - every one of its " + pool.getMaximumPoolSize() + " connections stayed in use for "
        + timeoutMillis + " ms";
    if (answers == 0) {
      return new Unanswered(full + ", and MariaDB answered none of their work meanwhile");
    }
    return new SQLTransientConnectionException(full + "; the " + answers + " given back meanwhile, answered, went to calls that"
        + " waited before (more work than connections: a larger pool-size, or shorter transactions)");
  }

  /**
   * Every connection stayed in use for the whole connection timeout and the server answered none
   * of their work: no statement ended in that time, longer than a statement may run before the
   * server cancels it ({@link Timeouts}), and those whose connection was lost meanwhile got no
   * answer either. It is out of reach, as when a connection is lost (docs/faults.md).
   */
  static final class Unanswered extends SQLTransientConnectionException {
    private static final long serialVersionUID = 1L;

    Unanswered(String message) {
      super(message);
    }
  }

  /** How many threads wait at the gate for a connection (for tests). */
  int waiting() {
    return gate.getQueueLength();
  }

  /** What runs on a connection. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }
}
