package io.toa4j.testkit.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection whose {@code n}-th statement run throws an {@link Error} once the driver has run it:
 * the server did the work, and its caller is cut short before it hears of it — the moment an error
 * in the middle of a driver's exchange, or a stack run out on the way back, leaves a caller in. The
 * statements are counted across every {@link Statement} and {@code PreparedStatement} the
 * connection makes ({@code execute}, {@code executeQuery}, {@code executeUpdate}, {@code
 * executeBatch} and their kin); with {@code n} 0 nothing is cut, and {@link #runs()} counts them,
 * to learn how many there are.
 */
public final class CutShort {
  /** What the cut statement's caller gets. */
  public static final class Cut extends Error {
    private static final long serialVersionUID = 1L;

    Cut(int n) {
      super("cut short after statement " + n + " ran");
    }
  }

  private final int at;
  private final AtomicInteger runs = new AtomicInteger();

  private CutShort(int at) {
    this.at = at;
  }

  /** Cuts short the {@code n}-th statement run on the connection (counting from 1); 0 for none. */
  public static CutShort after(int n) {
    if (n < 0) throw new IllegalArgumentException("n must be 0 or more, not " + n);
    return new CutShort(n);
  }

  /** How many statements ran through the connections this made. */
  public int runs() {
    return runs.get();
  }

  /** The connection, its statements counted and the {@code n}-th cut short. */
  public Connection wrap(Connection connection) {
    return proxy(Connection.class, connection);
  }

  private <T> T proxy(Class<T> type, Object target) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object result = invoke(method, target, args);
          Class<?> answers = method.getReturnType();
          if (target instanceof Connection
              && result instanceof Statement
              && Statement.class.isAssignableFrom(answers)) {
            return proxy(answers, result); // a Statement, a PreparedStatement, a CallableStatement
          }
          if (target instanceof Statement && method.getName().startsWith("execute")) {
            int n = runs.incrementAndGet();
            if (n == at) throw new Cut(n);
          }
          return result;
        };
    return type.cast(
        Proxy.newProxyInstance(CutShort.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
