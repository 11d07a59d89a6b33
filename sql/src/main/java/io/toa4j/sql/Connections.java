package io.toa4j.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server storage's connections: its pool (HikariCP's, in both server storages) behind a fair gate
 * of as many permits as the pool has connections, so that the threads beyond them wait their turn
 * parked, in the order they came, rather than inside the pool.
 *
 * <p>A connection given back while threads wait inside HikariCP is handed over with the giver
 * spinning ({@code Thread.yield}) until a waiter takes it; with more callers than connections — a
 * process's callers, receivers and publisher on ten connections — that spinning took a tenth of the
 * callers' processor time, and waiters were served in no particular order. Past the gate, a thread
 * finds a connection idle, or one being replaced after a loss. Thread-safe.
 */
public final class Connections {
  private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

  /**
   * The threads that discard connections, one per connection at once, daemons that end a minute
   * after their last: a discard that never ends holds up no other. One may never end — an {@code
   * Error} that left the JDK socket's read or write lock held by a thread that is gone leaves every
   * later read or write of that socket waiting for it, closing included (MariaDB's close reads the
   * server's last bytes; PostgreSQL's writes its goodbye) — and with a single thread for them all,
   * the next connection to discard waited behind it for good, still lent, until the pool had none.
   */
  private static final ThreadPoolExecutor APART = apart();

  /**
   * The thread connections left in an unknown state are handed to, with a stack of its own: one for
   * the process, started with the first storage, a daemon. It never enters a driver: it hands each
   * connection on to a thread of {@link #APART}.
   */
  private static final ThreadPoolExecutor DISCARDS = discards();

  private final DataSource pool;
  private final Pool shape;
  private final Semaphore gate;
  private final Executor discards;

  /**
   * How many works the server answered: ended, or failed with an answer of the server's (not a lost
   * connection). A wait at the gate that saw none answered met a server that answers nothing.
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
  public record Pool(
      String name,
      int size,
      long timeoutMillis,
      String server,
      Predicate<Throwable> unreachable,
      Consumer<Connection> discard) {}

  /**
   * @param pool opened, as {@code shape} describes it
   */
  public Connections(DataSource pool, Pool shape) {
    this(pool, shape, Connections::discardApart);
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
   * a result nor a {@link SQLException} — an {@code Error} (a stack or the heap run out in the
   * middle of the driver's exchange), a {@code RuntimeException} — may leave its connection
   * anywhere: a transaction open, a reply half read, so that the next statement on it reads the
   * last one's rows. That connection is discarded, never given to another work: handed, as it is,
   * to a thread of its own that discards it, since the work may have ended for want of stack and
   * discarding takes more (a single call here: the {@code Discard} handed over is of a class loaded
   * beforehand).
   *
   * @throws SQLException what the work or the pool threw; {@link SQLTransientConnectionException}
   *     when every connection stayed in use for the pool's connection timeout, an {@link
   *     Unanswered} one when the server answered none of their work meanwhile
   */
  public <T> T run(Work<T> work) throws SQLException {
    long before = answered.get();
    try {
      if (!gate.tryAcquire(shape.timeoutMillis(), TimeUnit.MILLISECONDS))
        throw exhausted(answered.get() - before);
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
        if (!shape.unreachable().test(e))
          answered.incrementAndGet(); // an error is an answer too; a lost connection is none
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
    String full =
        shape.name()
            + " - every one of its "
            + shape.size()
            + " connections stayed in use for "
            + shape.timeoutMillis()
            + " ms";
    if (answers == 0) {
      return new Unanswered(
          full + ", and " + shape.server() + " answered none of their work meanwhile");
    }
    return new SQLTransientConnectionException(
        full
            + "; the "
            + answers
            + " given back meanwhile, answered, went to calls that"
            + " waited before (more work than connections: a larger pool-size, or shorter transactions)");
  }

  /**
   * Every connection stayed in use for the whole connection timeout and the server answered none of
   * their work: no statement ended in that time, longer than a statement may run before the server
   * stops it, and those whose connection was lost meanwhile got no answer either. It is out of
   * reach, as when a connection is lost (docs/faults.md).
   */
  public static final class Unanswered extends SQLTransientConnectionException {
    private static final long serialVersionUID = 1L;

    Unanswered(String message) {
      super(message);
    }
  }

  /** Hands a discard to {@link #DISCARDS}, which hands it on to a thread of {@link #APART}. */
  private static void discardApart(Runnable discard) {
    DISCARDS.execute(new Apart(discard));
  }

  /**
   * Closes a pool within the time given, on a thread of its own: a pool closing a connection that
   * never ends (see {@link #APART}) would hold its closer for good. Past the time, it is left to
   * end on that thread, and a warning says so.
   *
   * @return whether it closed within the time
   */
  public static boolean close(AutoCloseable pool, String name, Duration within) {
    FutureTask<Void> closing =
        new FutureTask<>(
            () -> {
              pool.close();
              return null;
            });
    Thread thread = new Thread(closing, "toa4j-sql-close-" + name);
    thread.setDaemon(true);
    thread.start();
    try {
      closing.get(within.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      LOG.warn(
          "{} did not close within {} ms: a connection of it does not end (an Error left its socket locked?). It is left to close on {}",
          name,
          within.toMillis(),
          thread.getName());
      return false;
    } catch (ExecutionException e) {
      LOG.warn("{} failed to close", name, e.getCause());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn("Interrupted while {} closed; it is left to close on {}", name, thread.getName());
      return false;
    }
  }

  private static ThreadPoolExecutor apart() {
    AtomicLong threads = new AtomicLong();
    return new ThreadPoolExecutor(
        0,
        Integer.MAX_VALUE,
        60,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        runnable -> {
          Thread thread = new Thread(runnable, "toa4j-sql-discard-" + threads.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
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
    // the hand-overs' classes, loaded and linked now, not when first needed deep in a stack
    executor.execute(new Apart(new Discard(connection -> {}, null)));
    return executor;
  }

  /**
   * A discard handed on to a thread of {@link #APART}; where no thread can be started, it runs
   * here, the next waiting meanwhile.
   */
  private record Apart(Runnable discard) implements Runnable {
    @Override
    public void run() {
      try {
        APART.execute(discard);
      } catch (RuntimeException
          | OutOfMemoryError e) { // no thread to be had: rejected, or none can be made
        discard.run();
      }
    }
  }

  /**
   * A connection to discard, and how; its class loaded with this one's, not when first needed deep
   * in a stack.
   */
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
