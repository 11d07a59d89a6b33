package io.toa4j.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The read connections of a SQLite file (a store of the embedded storage, the embedded bus's file):
 * a read takes one, runs, and gives it back; a read that finds none free waits for one at most the
 * reader wait, then fails naming the file and the numbers, and a pool that closes leaves no
 * connection open behind it.
 *
 * <p>Each connection is in one of three states, moved only under this object's monitor: <b>idle</b>
 * (in the pool) → <b>taken</b> by {@link #take} (one read at a time); taken → idle by {@link
 * #give}, or taken → <b>closed</b> by {@code give} once the pool is closed; idle → closed by {@link
 * #close}, which then waits at most the close wait for the taken ones to come back (each is closed
 * as it does, also after {@code close} returned). A read waiting when the pool closes fails at
 * once. Nothing is held between {@code take} and {@code give} but the connection itself, so a read
 * that throws, {@code Error} included, gives it back in its {@code finally}. The idle connections
 * are an array and a count, moved with field reads and writes alone: a {@code StackOverflowError}
 * is thrown only on entering a method, so a connection is never half taken or half given back (an
 * {@code ArrayDeque} calls methods between removing an element and answering it: a publish run out
 * of stack there lost a reader of the embedded bus for good, and the next reads waited for it).
 *
 * <p>{@link #read} runs a read between {@code take} and {@code give}, and keeps the statements it
 * prepares ({@link #prepared}) on their connection for the next reads: SQLite compiles a
 * statement's text each time it is prepared. A read that does not return — a {@link SQLException},
 * a {@link RuntimeException}, an {@link Error} anywhere inside it — may leave them in any state (a
 * result set open, a step half done), so the next read on that connection closes them all and
 * prepares each again when asked for. Whether a read returned is a field set before it runs and
 * cleared once it returned, so an error cannot leave it saying the statements are sound (a {@code
 * ConcurrentHashMap} of the statements, entered by a read run out of stack, was left holding a
 * reservation that made every later use of the connection's entry fail). The kept statements of a
 * connection are used only by the thread that took it, and handed on with it. Thread-safe.
 */
public final class Readers {
  /** Statements run on a reader, by the thread that took it. */
  @FunctionalInterface
  public interface Read<T> {
    T run(Connection reader) throws SQLException;
  }

  /**
   * The statements kept on one connection; read and written only by the thread that took it. A
   * connection's statements are closed with it.
   */
  private static final class Kept {
    private Map<String, PreparedStatement> statements = new HashMap<>();

    /** Set while a read runs, and left set by one that did not return. */
    private boolean unfinished;

    /**
     * Closes every kept statement and starts afresh; a failure on the way leaves {@code unfinished}
     * set, so the next read does it again (closing a statement twice does nothing).
     */
    private void forget() {
      for (PreparedStatement statement : statements.values()) {
        try {
          statement.close();
        } catch (SQLException ignored) {
          // dropped either way; the connection frees what it can when it closes
        }
      }
      statements = new HashMap<>();
    }
  }

  private final Path file;
  private final int size;
  private final long waitNanos;
  private final long closeNanos;
  private final Supplier<? extends RuntimeException> closedFailure;

  /** The idle connections, {@code idle[0..free)}; guarded by this. */
  private final Connection[] idle;

  /** The kept statements of each connection, by its identity; fixed at construction. */
  private final Map<Connection, Kept> kept = new IdentityHashMap<>();

  private int free;
  private int taken;
  private int waiting;
  private boolean closed;

  /**
   * @param connections the pool's connections, all idle, owned by it from now on
   * @param wait the longest a read waits for a connection
   * @param closeWait the longest {@link #close} waits for the taken ones to come back
   * @param closedFailure what a read fails with once the pool is closed
   */
  public Readers(
      Path file,
      List<Connection> connections,
      Duration wait,
      Duration closeWait,
      Supplier<? extends RuntimeException> closedFailure) {
    this.file = file;
    this.closedFailure = closedFailure;
    this.size = connections.size();
    this.waitNanos = wait.toNanos();
    this.closeNanos = closeWait.toNanos();
    this.idle = connections.toArray(new Connection[0]);
    this.free = idle.length;
    for (Connection c : idle) kept.put(c, new Kept());
  }

  /**
   * Takes a connection, runs the read on it, and gives it back whatever the read throws; the
   * statements the read prepared with {@link #prepared} are kept for the next reads when it
   * returns, and closed by the next read on the connection when it does not.
   *
   * @throws SQLException what the read threw
   * @throws IllegalStateException as {@link #take}
   */
  public <T> T read(Read<T> read) throws SQLException {
    Connection c = take();
    try {
      Kept statements = kept(c);
      if (statements.unfinished) statements.forget();
      statements.unfinished = true;
      T result = read.run(c);
      statements.unfinished = false;
      return result;
    } finally {
      give(c);
    }
  }

  /**
   * The statement of this text on the reader, prepared the first time a read on it asks and kept
   * for the next ones: only inside a {@link #read}, on the connection it was given. The read sets
   * every parameter, closes the result sets it opened, and never closes the statement.
   *
   * @throws IllegalArgumentException when the connection is not one of this pool's
   */
  public PreparedStatement prepared(Connection reader, String sql) throws SQLException {
    Kept statements = kept(reader);
    PreparedStatement statement = statements.statements.get(sql);
    if (statement == null) {
      statement = reader.prepareStatement(sql);
      statements.statements.put(sql, statement);
    }
    return statement;
  }

  private Kept kept(Connection c) {
    Kept statements = kept.get(c);
    if (statements == null)
      throw new IllegalArgumentException("The connection is not a reader of " + file);
    return statements;
  }

  /**
   * A free connection, taken until {@link #give}; waits for one at most the reader wait.
   *
   * @throws IllegalStateException when none came free in time, or when interrupted while waiting
   *     (the interrupt kept); the closed failure when the pool is closed, or closes while this
   *     waits
   */
  public synchronized Connection take() {
    long deadline = System.nanoTime() + waitNanos;
    waiting++;
    try {
      while (free == 0 && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) throw exhausted();
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a reader of " + file, e);
    } finally {
      waiting--;
    }
    if (closed) throw closedFailure.get();
    Connection c = idle[--free];
    idle[free] = null;
    taken++;
    return c;
  }

  private IllegalStateException exhausted() {
    return new IllegalStateException(
        "SQLite could not read in "
            + file
            + ": none of its "
            + size
            + " readers came free in "
            + TimeUnit.NANOSECONDS.toMillis(waitNanos)
            + " ms ("
            + taken
            + " in use, "
            + waiting
            + " reads waiting); each read holds one for as long as it runs");
  }

  /** Gives back a connection {@link #take} gave: idle again, or closed once the pool is closed. */
  public void give(Connection c) {
    synchronized (this) {
      if (!closed) {
        idle[free++] = c;
        taken--;
        notify(); // one connection: one waiting read
        return;
      }
    }
    closeQuietly(c);
    synchronized (this) {
      taken--;
      notifyAll(); // close may be waiting for it
    }
  }

  /**
   * Closes the idle connections at once and the taken ones as they come back, waiting for them at
   * most the close wait; a read waiting for a connection fails, and every later one too.
   *
   * @return how many were still taken when the wait ended: each is closed when its read ends
   */
  public int close() {
    List<Connection> idleNow;
    synchronized (this) {
      closed = true;
      idleNow = new ArrayList<>(Arrays.asList(idle).subList(0, free));
      Arrays.fill(idle, null);
      free = 0;
      notifyAll();
    }
    idleNow.forEach(Readers::closeQuietly);
    return awaitGivenBack();
  }

  /** Waits at most the close wait for every taken connection to come back; how many did not. */
  private synchronized int awaitGivenBack() {
    long deadline = System.nanoTime() + closeNanos;
    try {
      for (long left = closeNanos; taken > 0 && left > 0; left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread()
          .interrupt(); // stop waiting; those still taken are closed when they come back
    }
    return taken;
  }

  /** Closes the connection, ignoring a failure: closing, nothing is left to protect. */
  public static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing: nothing left to protect
    }
  }
}
