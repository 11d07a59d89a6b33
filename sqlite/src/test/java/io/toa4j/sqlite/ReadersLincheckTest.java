package io.toa4j.sqlite;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The reader pool ({@link Readers}) explored by Lincheck's model checker: reads that take a
 * connection and give it back, reads whose work throws an {@code Error} in between, and the pool's
 * close, under many interleavings of three threads sharing two connections. Whatever the
 * interleaving: no connection is held by two reads at once, a read after close is refused, a
 * connection is never used once closed, and once the pool closed and every read ended, every
 * connection is closed — none left open behind it. The connections are stand-ins that count who
 * holds them and whether they were closed, and reads do not wait for a connection (a wait of zero:
 * the model checker's clock stands still, so a timed wait would never end): the pool's bookkeeping
 * is what is explored, not SQLite or time.
 */
public class ReadersLincheckTest {
  private static final class Closed extends RuntimeException {
    Closed() {
      super("the pool is closed");
    }
  }

  private static final int CONNECTIONS = 2;
  private final AtomicIntegerArray holders = new AtomicIntegerArray(CONNECTIONS);
  private final AtomicIntegerArray closedConnections = new AtomicIntegerArray(CONNECTIONS);
  private final AtomicReference<String> violation = new AtomicReference<>();
  private final List<Connection> connections = List.of(connection(0), connection(1));
  private final Readers readers =
      new Readers(Path.of("lincheck.db"), connections, Duration.ZERO, Duration.ZERO, Closed::new);
  private volatile boolean closeReturned;

  /** Stand-in connection {@code n}: closing it is recorded, anything else is not expected. */
  private Connection connection(int n) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "close" -> {
                    closedConnections.set(n, 1);
                    yield null;
                  }
                  case "equals" -> proxy == args[0];
                  case "hashCode" -> n;
                  case "toString" -> "connection " + n;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private int index(Connection c) {
    for (int n = 0; n < CONNECTIONS; n++) if (connections.get(n) == c) return n;
    throw new IllegalStateException("a connection not of the pool");
  }

  @Operation
  public void read() {
    read(false);
  }

  @Operation
  public void readFailing() {
    read(true);
  }

  private void read(boolean failing) {
    Connection c;
    try {
      c = readers.take();
    } catch (Closed | IllegalStateException refused) {
      return; // the pool closed, or every connection was taken (the reads here do not wait)
    }
    int n = index(c);
    try {
      if (closedConnections.get(n) == 1)
        violation.compareAndSet(null, "a read was given a closed connection");
      if (holders.incrementAndGet(n) > 1)
        violation.compareAndSet(null, "two reads held one connection");
      holders.decrementAndGet(n);
      if (failing) throw new StackOverflowError("a read failing");
    } catch (StackOverflowError expected) {
      // the read's own failure: the connection goes back all the same
    } finally {
      readers.give(c);
    }
  }

  @Operation
  public void close() {
    readers.close();
    closeReturned = true;
  }

  @Validate
  public void nothingSharedAndNothingLeftOpen() {
    if (violation.get() != null) throw new IllegalStateException(violation.get());
    if (closeReturned && (closedConnections.get(0) == 0 || closedConnections.get(1) == 0)) {
      throw new IllegalStateException(
          "the pool closed and every read ended, yet a connection was left open");
    }
  }

  @Test
  void readers_underEveryInterleaving_shareNothing_andCloseEverything() {
    new ModelCheckingOptions()
        .iterations(20)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(2)
        .check(ReadersLincheckTest.class);
  }
}
