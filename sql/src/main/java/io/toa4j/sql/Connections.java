package io.toa4j.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * A server storage's connections: its pool (HikariCP's, in both server storages) behind a fair
 * gate of as many permits as the pool has connections, so that the threads beyond them wait their
 * turn parked, in the order they came, rather than inside the pool.
 *
 * <p>A connection given back while threads wait inside HikariCP is handed over with the giver
 * spinning ({@code Thread.yield}) until a waiter takes it; with more callers than connections —
 * a process's callers, receivers and publisher on ten connections — that spinning took a tenth of
 * the callers' processor time, and waiters were served in no particular order. Past the gate, a
 * thread finds a connection idle, or one being replaced after a loss. Thread-safe.
 */
public final class Connections {
  private final DataSource pool;
  private final Pool shape;
  private final Semaphore gate;
  /**
   * How many works the server answered: ended, or failed with an answer of the server's (not a
   * lost connection). A wait at the gate that saw none answered met a server that answers nothing.
   */
  private final AtomicLong answered = new AtomicLong();

  /**
   * What the gate needs to know of the pool behind it, and of its server.
   *
   * @param name the pool's name, for messages
   * @param size its most connections, not to change
   * @param timeoutMillis how long a thread waits for a connection, the pool's own timeout
   * @param server the server's name, such as {@code PostgreSQL}, for messages
   * @param unreachable whether an error says the server is out of reach, as the storage judges
   */
  public record Pool(String name, int size, long timeoutMillis, String server, Predicate<Throwable> unreachable) {}

  /** @param pool opened, as {@code shape} describes it */
  public Connections(DataSource pool, Pool shape) {
    this.pool = pool;
    this.shape = shape;
    this.gate = new Semaphore(shape.size(), true);
  }

  /**
   * Runs the work on a connection of the pool, taken for its duration.
   *
   * @throws SQLException what the work or the pool threw; {@link SQLTransientConnectionException}
   *     when every connection stayed in use for the pool's connection timeout, an {@link
   *     Unanswered} one when the server answered none of their work meanwhile
   */
  public <T> T run(Work<T> work) throws SQLException {
    long before = answered.get();
    try {
      if (!gate.tryAcquire(shape.timeoutMillis(), TimeUnit.MILLISECONDS)) throw exhausted(answered.get() - before);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException(shape.name() + " - interrupted while waiting for a connection", e);
    }
    try (Connection c = pool.getConnection()) {
      T result = work.run(c);
      answered.incrementAndGet();
      return result;
    } catch (SQLException e) {
      if (!shape.unreachable().test(e)) answered.incrementAndGet(); // an error is an answer too; a lost connection is none
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
    String full = shape.name() + " - every one of its " + shape.size() + " connections stayed in use for "
        + shape.timeoutMillis() + " ms";
    if (answers == 0) {
      return new Unanswered(full + ", and " + shape.server() + " answered none of their work meanwhile");
    }
    return new SQLTransientConnectionException(full + "; the " + answers + " given back meanwhile, answered, went to calls that"
        + " waited before (more work than connections: a larger pool-size, or shorter transactions)");
  }

  /**
   * Every connection stayed in use for the whole connection timeout and the server answered none
   * of their work: no statement ended in that time, longer than a statement may run before the
   * server stops it, and those whose connection was lost meanwhile got no answer either. It is out
   * of reach, as when a connection is lost (docs/faults.md).
   */
  public static final class Unanswered extends SQLTransientConnectionException {
    private static final long serialVersionUID = 1L;

    Unanswered(String message) {
      super(message);
    }
  }

  /** How many threads wait at the gate for a connection (for tests). */
  public int waiting() {
    return gate.getQueueLength();
  }

  /** What runs on a connection. */
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }
}
