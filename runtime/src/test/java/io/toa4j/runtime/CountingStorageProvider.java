package io.toa4j.runtime;

import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.Write;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A third storage engine, {@code counting}, registered with {@link java.util.ServiceLoader} by the
 * tests' own {@code META-INF/services}: the embedded storage, counting the commits it answers and
 * the calls each store gets. Its one option, {@code label}, names the counter; any other is refused
 * by name.
 */
public final class CountingStorageProvider implements StorageProvider {
  /** Commits counted, by the {@code label} option. */
  static final Map<String, AtomicLong> COMMITS = new java.util.concurrent.ConcurrentHashMap<>();

  /** Calls of the stores' methods, by {@code label/component/method}. */
  static final Map<String, AtomicLong> CALLS = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * How many times the component's store of the storage labelled {@code label} was asked {@code
   * method}.
   */
  static long calls(String label, String component, String method) {
    AtomicLong n = CALLS.get(label + "/" + component + "/" + method);
    return n == null ? 0 : n.get();
  }

  @Override
  public String name() {
    return "counting";
  }

  @Override
  public Storage open(StorageSettings settings) {
    Map<String, String> rest = new HashMap<>(settings.options());
    String label = rest.remove("label");
    if (label == null || !rest.isEmpty()) {
      throw new IllegalArgumentException(
          "The counting storage takes one option, label"
              + (rest.isEmpty()
                  ? ", and it is missing"
                  : "; it has no option '" + rest.keySet().iterator().next() + "'"));
    }
    AtomicLong commits = COMMITS.computeIfAbsent(label, l -> new AtomicLong());
    Storage sqlite =
        new SqliteStorageProvider().open(new StorageSettings(settings.stateDirectory(), Map.of()));
    return new Storage() {
      @Override
      public Store store(String component) {
        Store store = sqlite.store(component);
        return (Store)
            Proxy.newProxyInstance(
                Store.class.getClassLoader(),
                new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                  Object result;
                  CALLS
                      .computeIfAbsent(
                          label + "/" + component + "/" + method.getName(), k -> new AtomicLong())
                      .incrementAndGet();
                  try {
                    result = method.invoke(store, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("commit")
                      && args[0] instanceof Write
                      && result == Outcome.COMMITTED) {
                    commits.incrementAndGet();
                  }
                  return result;
                });
      }

      @Override
      public boolean transactional() {
        return sqlite.transactional();
      }

      @Override
      public String describe() {
        return "the counting storage over " + sqlite.describe();
      }

      @Override
      public void close() {
        sqlite.close();
      }
    };
  }
}
