package io.toa4j.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The writes of one SQLite file, committed in groups: one transaction and one fsync for every write
 * that waited while the one before was committed.
 *
 * <p>A write joins a queue, and whichever waiting thread finds the writer free takes everything
 * queued (up to the batch size) into one {@code BEGIN IMMEDIATE} transaction, each write inside a
 * savepoint of its own, and commits them together. A write that is not kept, or whose statements
 * fail, is rolled back to its savepoint and leaves the others alone; a transaction that cannot
 * begin or commit fails every write in it, and so does an {@code Error} thrown by a work (its own
 * thread gets the {@code Error}, the others a {@code SQLException} caused by it). Whatever a batch
 * throws, its transaction is rolled back before the writer is given up, or, when even that fails,
 * before the next batch begins: no transaction outlives its batch to hold the file's other writers
 * with {@code SQLITE_BUSY}. A write returns only once the commit that holds it has returned, so
 * with {@code synchronous=FULL} what was answered is on disk. A thread whose write was committed in
 * someone else's batch leaves as soon as that batch is done.
 *
 * <p>A write may say it need not wait for the disk ({@link #writeUnsynced}): one whose loss on
 * power failure only repeats work, such as the removal of a message already handled. A batch of
 * such writes alone commits with {@code synchronous=NORMAL}, which in WAL mode writes the WAL and
 * does not fsync it: what it wrote survives a crash of the process, and reaches the disk with the
 * next fsync of the WAL (the next synced commit, or a checkpoint). A batch holding any synced write
 * commits with {@code synchronous=FULL}.
 *
 * <p>The writer connection is this object's alone and stays in auto-commit mode: the transaction
 * and its savepoints are SQL statements. Thread-safe.
 */
public final class GroupCommit {
  /** Statements on the writer connection, inside the write's transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection writer) throws SQLException;
  }

  private final Connection writer;

  /**
   * The statements on the writer, each prepared once (SQLite compiles a statement's text each time
   * it is prepared): the transaction's own and the works' ({@link #prepared}). Used only by the
   * thread holding the writer, as is {@code syncing}.
   */
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  /**
   * Whether the writer now commits with {@code synchronous=FULL}; null when not known: before a
   * batch set it, and while (or after) a pragma setting it threw.
   */
  private Boolean syncing;

  /**
   * Whether a transaction may be open: set before a batch begins one, cleared once it is committed
   * or rolled back; left set after a batch whose rollback failed, and the next batch rolls back
   * first. Held as the statements are.
   */
  private boolean unfinished;

  /**
   * Whether the kept statements may be in any state: set before a batch runs, cleared once it
   * committed. A batch that fails closes them ({@link #forgetPrepared}); should that be cut short
   * too (an {@link Error} on the way in), the next batch closes them first. Held as the statements
   * are.
   */
  private boolean unsure;

  /** The writes waiting for the writer, and the thread holding it. */
  private final Batches<Pending<?>> batches;

  /**
   * @param writer the file's writer connection, in auto-commit mode, used by nothing else
   * @param batchSize the most writes one transaction commits together
   * @param closedFailure what a write after {@link #close()} throws
   */
  public GroupCommit(
      Connection writer, int batchSize, Supplier<? extends RuntimeException> closedFailure) {
    this.writer = writer;
    this.batches = new Batches<>(batchSize, closedFailure);
  }

  /**
   * Runs the work in a committed transaction, as {@link #write(Work, Predicate)} keeping it always.
   */
  public <T> T write(Work<T> work) throws SQLException {
    return write(work, result -> true);
  }

  /**
   * Runs the work on the writer and answers once the transaction holding it is committed; keeps
   * what it wrote only when {@code keep} says so of its result.
   *
   * @throws SQLException when its statements failed, or its transaction did not commit: nothing of
   *     it was kept
   */
  public <T> T write(Work<T> work, Predicate<T> keep) throws SQLException {
    return write(new Pending<>(work, keep, true));
  }

  /**
   * Runs the work as {@link #write(Work)} does, answering once its transaction is committed, but
   * without waiting for the disk unless a synced write shares the transaction: what it wrote
   * survives the process, and may be lost with the last commits on power loss or an OS crash.
   */
  public <T> T writeUnsynced(Work<T> work) throws SQLException {
    return write(new Pending<>(work, result -> true, false));
  }

  /**
   * The pending write, committed in a batch; the batch's failure is the write's. An {@code Error}
   * reaches the thread whose work threw it; the other writes of its batch fail with a {@code
   * SQLException} caused by it, as writes that did not commit.
   */
  private <T> T write(Pending<T> pending) throws SQLException {
    try {
      batches.join(pending, this::commit);
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Error e) {
      if (pending.failure == e) throw e;
      throw new SQLException("the transaction did not finish: " + e, e);
    } catch (Exception e) {
      throw new SQLException("the transaction did not finish: " + e, e);
    }
    return pending.outcome();
  }

  /**
   * Waits for the batch being committed, then refuses every write from now on with the closed
   * failure. Does not close the connection.
   */
  public void close() {
    batches.close();
  }

  /**
   * Commits a batch in one transaction, on the writer, which the calling thread holds. Whatever the
   * batch throws, {@code Error} included, its transaction is rolled back and the batch throws it
   * again, failing every write of it; the writer is left with no transaction open, or marked {@code
   * unfinished} when even the rollback failed, and the next batch rolls back first.
   */
  private void commit(List<Pending<?>> batch) throws SQLException {
    try {
      if (unsure) forgetPrepared(); // a batch before this one failed and could not close them
      unsure = true;
      if (unfinished) rollback(); // a batch before this one could not end its transaction
      boolean synced = false;
      for (Pending<?> pending : batch) synced |= pending.synced;
      if (!Boolean.valueOf(synced).equals(syncing)) {
        syncing =
            null; // unknown until the pragma has returned: it may take effect and its call still
        // throw
        execute(
            synced
                ? "PRAGMA synchronous = FULL"
                : "PRAGMA synchronous = NORMAL"); // not allowed inside a transaction
        syncing = synced;
      }
      // marked before it begins: BEGIN may take effect and its call still throw (an Error on the
      // way
      // back from the driver), and a transaction nobody marked would hold the file until a restart
      unfinished = true;
      execute("BEGIN IMMEDIATE");
      boolean any;
      if (batch.size() == 1) {
        any = batch.get(0).runAlone(this);
      } else {
        any = false;
        for (Pending<?> pending : batch) any |= pending.runInSavepoint(this);
      }
      execute(any ? "COMMIT" : "ROLLBACK");
      unfinished = false;
      unsure = false;
    } catch (Throwable t) { // an Error too: the transaction must not outlive the batch
      forgetPrepared();
      if (unfinished) rollbackQuietly();
      throw t;
    }
  }

  /**
   * A statement on the writer, prepared the first time a work asks for it and kept for the next
   * ones: SQLite compiles a statement's text each time it is prepared. Only for a work running in
   * {@link #write}, on its own thread. The work sets every parameter, closes the result sets it
   * opened, and never closes the statement; after a work fails, every kept statement is closed and
   * prepared again when next asked for.
   *
   * @throws IllegalStateException when the calling thread does not hold the writer
   */
  public PreparedStatement prepared(String sql) throws SQLException {
    if (!batches.heldBy(Thread.currentThread()))
      throw new IllegalStateException(
          "Only a write's work, on its own thread, may use the writer's statements");
    return statement(sql);
  }

  /**
   * The kept statement of the text, prepared now if it is not kept; by the thread holding the
   * writer.
   */
  private PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = writer.prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  /**
   * Closes every kept statement, which a failure may have left in any state; each is prepared again
   * when next asked for.
   */
  private void forgetPrepared() {
    for (PreparedStatement statement : statements.values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // dropped either way; the connection frees what it can when it closes
      }
    }
    statements.clear();
  }

  /**
   * Runs one of the transaction's own statements: BEGIN, COMMIT, ROLLBACK, savepoints, the sync
   * mode.
   */
  private void execute(String sql) throws SQLException {
    try {
      statement(sql).execute();
    } catch (SQLException e) {
      forgetPrepared();
      throw e;
    }
  }

  /** Rolls the open transaction back; SQLite's "no transaction is active" counts as done. */
  private void rollback() throws SQLException {
    try {
      execute("ROLLBACK");
    } catch (SQLException e) {
      // SQLite rolls back by itself after some errors (a full disk, an interrupt): nothing is open
      if (!String.valueOf(e.getMessage()).contains("no transaction is active")) throw e;
    }
    unfinished = false;
  }

  /** Rolls back, leaving the writer marked {@code unfinished} when it cannot. */
  private void rollbackQuietly() {
    try {
      rollback();
    } catch (Throwable t) { // an Error too: the next batch tries again before it begins
      forgetPrepared();
    }
  }

  /**
   * One write waiting in the queue, then its result or its own failure: written by the thread
   * holding the writer, read by the write's own thread once {@link Batches} has ended its batch
   * (under its lock).
   */
  private static final class Pending<T> {
    private final Work<T> work;
    private final Predicate<T> keep;
    private final boolean synced;
    private T result;
    private Throwable failure;

    Pending(Work<T> work, Predicate<T> keep, boolean synced) {
      this.work = work;
      this.keep = keep;
      this.synced = synced;
    }

    /**
     * The only write of its transaction: its failure is the transaction's.
     *
     * @return whether it is kept
     */
    boolean runAlone(GroupCommit commits) throws SQLException {
      try {
        result = work.run(commits.writer);
        return keep.test(result);
      } catch (Error e) {
        failure = e;
        throw e;
      }
    }

    /**
     * One write of several: a failure of its own statements is its own and rolls back to its
     * savepoint only; a failure to roll back means the transaction is gone, and fails the batch.
     *
     * @return whether it is kept
     */
    boolean runInSavepoint(GroupCommit commits) throws SQLException {
      commits.execute("SAVEPOINT write");
      boolean kept = false;
      try {
        result = work.run(commits.writer);
        kept = keep.test(result);
      } catch (SQLException | RuntimeException e) {
        failure = e;
        commits.forgetPrepared();
      } catch (Error e) {
        failure = e; // its own; it ends the transaction, and the batch with it
        throw e;
      }
      if (!kept) commits.execute("ROLLBACK TO write");
      commits.execute("RELEASE write");
      return kept;
    }

    T outcome() throws SQLException {
      if (failure instanceof SQLException e) throw e;
      if (failure instanceof RuntimeException e) throw e;
      if (failure instanceof Error e) throw e;
      return result;
    }
  }
}
