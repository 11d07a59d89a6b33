package io.toa4j.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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
  /**
   * The thread that discards connections left in an unknown state, with a stack of its own: one for
   * the process, started with the first storage, a daemon.
   */
  private static final ThreadPoolExecutor DISCARDS = discards();

  private final DataSource pool;
  private final Pool shape;
  private final Semaphore gate;
  private final Executor discards;
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
   * @param discard takes a connection out of the pool for good, closing it (HikariCP's eviction):
   *     for one whose work ended in neither a result nor a {@link SQLException}
   */
  public record Pool(String name, int size, long timeoutMillis, String server, Predicate<Throwable> unreachable, Consumer<Connection> discard) {}

  /** @param pool opened, as {@code shape} describes it */
  public Connections(DataSource pool, Pool shape) {
    this(pool, shape, DISCARDS);
  }

  /** As {@link #Connections(DataSource, Pool)}, discarding on the executor given (for tests). */
  Connections(DataSource pool, Pool shape, Executor discards) {
    this.pool = pool;
    this.shape = shape;
    this.gate = new Semaphore(shape.size(), true);
    this.discards = discards;
  }

  /**
   * Runs the work on a connection of the pool, taken for its duration. A work that ends in neither
   * a result nor a {@link SQLException} — an {@code Error} (a stack or the heap run out in the middle
   * of the driver's exchange), a {@code RuntimeException} — may leave its connection anywhere: a
   * transaction open, a reply half read, so that the next statement on it reads the last one's rows.
   * That connection is discarded, never given to another work: handed, as it is, to a thread of
   * its own that discards it, since the work may have ended for want of stack and discarding takes
   * more (a single call here: the {@code Discard} handed over is of a class loaded beforehand).
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
    try {
      Connection c = pool.getConnection();
      boolean known = false;
      try {
        T result = work.run(c);
        known = true;
        answered.incrementAndGet();
        return result;
      } catch (SQLException e) {
        known = true; // the driver said what failed; the pool judges the connection by it
        if (!shape.unreachable().test(e)) answered.incrementAndGet(); // an error is an answer too; a lost connection is none
        throw e;
      } finally {
        if (known) c.close();
        else discards.execute(new Discard(shape.discard(), c));
      }
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

  private static ThreadPoolExecutor discards() {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "toa4j-sql-discard");
              thread.setDaemon(true);
              return thread;
            });
    executor.prestartCoreThread();
    executor.execute(new Discard(connection -> {}, null)); // the hand-over's classes, loaded and linked now
    return executor;
  }

  /** A connection to discard, and how; its class loaded with this one's, not when first needed deep in a stack. */
  private record Discard(Consumer<Connection> discard, Connection connection) implements Runnable {
    @Override
    public void run() {
      discard.accept(connection);
    }
  }

  /** How many of the gate's permits are free (for tests). */
  int free() {
    return gate.availablePermits();
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
