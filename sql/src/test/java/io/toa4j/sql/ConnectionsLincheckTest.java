package io.toa4j.sql;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The server storages' gate before their pool ({@link Connections}) explored by Lincheck's model
 * checker: works that return, works that fail with a {@code SQLException}, and works that end in an
 * {@code Error} in the middle of the driver's exchange, under many interleavings of three threads
 * sharing two connections. Whatever the interleaving: the gate never lets more works in than there
 * are connections, no connection is lent to two works at once, a connection whose work ended in an
 * {@code Error} is discarded and never lent again, and once every work ended, every permit is free
 * and every connection is back in the pool or discarded. The pool is a stand-in that counts who
 * holds what and replaces a discarded connection with a new one, as HikariCP does, and works do not
 * wait at the gate (a wait of zero: the model checker's clock stands still): the gate's bookkeeping
 * is what is explored, not a server or time.
 */
public class ConnectionsLincheckTest {
  private static final int SIZE = 2;

  /** Connections the stand-in pool can make: the first two, and one for each discarded. */
  private static final int MADE_AT_MOST = 16;

  private final AtomicIntegerArray lent = new AtomicIntegerArray(MADE_AT_MOST);
  private final AtomicIntegerArray discarded = new AtomicIntegerArray(MADE_AT_MOST);

  /** Connections a work ended in an Error on: their state unknown. */
  private final AtomicIntegerArray unknown = new AtomicIntegerArray(MADE_AT_MOST);

  private final AtomicInteger made = new AtomicInteger(SIZE);
  private final Deque<Integer> idle = new ConcurrentLinkedDeque<>(java.util.List.of(0, 1));
  private final AtomicReference<String> violation = new AtomicReference<>();
  private final Connections connections =
      new Connections(
          pool(),
          new Connections.Pool("lincheck", SIZE, 0, "a stand-in", t -> false, this::discard),
          Runnable::run);

  @Operation
  public void returns() {
    run(c -> 1);
  }

  @Operation
  public void failsWithASqlException() {
    run(
        c -> {
          throw new SQLException("a statement failed");
        });
  }

  @Operation
  public void endsInAnError() {
    run(
        c -> {
          unknown.set(((Numbered) c).number(), 1);
          throw new OutOfMemoryError("in the middle of the exchange");
        });
  }

  private void run(Connections.Work<Integer> work) {
    try {
      connections.run(work);
    } catch (SQLException | OutOfMemoryError e) {
      // the work's own failure, or every connection in use at once: what is checked is what is left
    }
  }

  @Validate
  public void everyPermitFree_everyConnectionBackOrDiscarded_noneLentTwice() {
    if (violation.get() != null) throw new IllegalStateException(violation.get());
    if (connections.free() != SIZE)
      throw new IllegalStateException(connections.free() + " permits free of " + SIZE);
    for (int i = 0; i < made.get(); i++) {
      if (lent.get(i) != 0) throw new IllegalStateException("connection " + i + " still lent");
      if (unknown.get(i) == 1 && discarded.get(i) == 0)
        throw new IllegalStateException(
            "connection " + i + " not discarded after its work ended in an Error");
      boolean back = idle.contains(i);
      if (back == (discarded.get(i) == 1))
        throw new IllegalStateException(
            "connection "
                + i
                + (back ? " back in the pool though discarded" : " neither back nor discarded"));
    }
  }

  @Test
  void gate_underEveryInterleaving_releasesEveryPermit_andDiscardsWhatAnErrorLeft() {
    new ModelCheckingOptions()
        .iterations(10)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(2)
        .check(ConnectionsLincheckTest.class);
  }

  private DataSource pool() {
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "hashCode":
                  return System.identityHashCode(proxy);
                case "equals":
                  return proxy == args[0];
                case "toString":
                  return "the stand-in pool";
                case "getConnection":
                  break;
                default:
                  throw new UnsupportedOperationException(method.getName());
              }
              Integer i = idle.poll();
              if (i == null) {
                violation.compareAndSet(
                    null, "the gate let in more works than there are connections");
                throw new SQLException("no connection idle");
              }
              if (discarded.get(i) == 1)
                violation.compareAndSet(
                    null, "connection " + i + " lent again after it was discarded");
              if (!lent.compareAndSet(i, 0, 1))
                violation.compareAndSet(null, "connection " + i + " lent to two works at once");
              return connection(i);
            });
  }

  private Connection connection(int i) {
    return (Connection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Connection.class, Numbered.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "number" -> i;
                  case "close" -> {
                    if (discarded.get(i) == 1)
                      violation.compareAndSet(
                          null, "connection " + i + " given back after it was discarded");
                    if (unknown.get(i) == 1)
                      violation.compareAndSet(
                          null,
                          "connection "
                              + i
                              + " given back to the pool after its work ended in an Error");
                    lent.set(i, 0);
                    idle.add(i);
                    yield null;
                  }
                  case "hashCode" -> i;
                  case "equals" -> proxy == args[0];
                  case "toString" -> "connection " + i;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /**
   * What HikariCP's eviction does: the connection leaves the pool for good, and a new one takes its
   * place.
   */
  private void discard(Connection c) {
    int i = ((Numbered) c).number();
    discarded.set(i, 1);
    lent.set(i, 0);
    idle.add(made.getAndIncrement());
  }

  /** Which stand-in a connection is. */
  public interface Numbered {
    int number();
  }
}
