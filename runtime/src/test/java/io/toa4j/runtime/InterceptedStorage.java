package io.toa4j.runtime;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.Callable;

/**
 * The embedded SQLite storage under an engine name of a test's own, every call to a store passing
 * through the test's interceptor, which runs the real call when it proceeds: a test holds or orders
 * a store's calls at the exact point it examines, on the real engine.
 */
final class InterceptedStorage implements StorageProvider {
  /**
   * Around one call of one component's store: {@code proceed} makes the real call and answers it.
   */
  @FunctionalInterface
  interface Interceptor {
    Object around(String component, Method method, Object[] args, Callable<Object> proceed)
        throws Exception;
  }

  private final String name;
  private final Interceptor interceptor;

  InterceptedStorage(String name, Interceptor interceptor) {
    this.name = name;
    this.interceptor = interceptor;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Storage open(StorageSettings settings) {
    Storage sqlite = new SqliteStorageProvider().open(settings);
    return new Storage() {
      @Override
      public Store store(String component) {
        Store store = sqlite.store(component);
        return (Store)
            Proxy.newProxyInstance(
                Store.class.getClassLoader(),
                new Class<?>[] {Store.class},
                (proxy, method, args) ->
                    interceptor.around(
                        component,
                        method,
                        args,
                        () -> {
                          try {
                            return method.invoke(store, args);
                          } catch (InvocationTargetException e) {
                            if (e.getCause() instanceof Error error) throw error;
                            throw e.getCause() instanceof Exception cause ? cause : e;
                          }
                        }));
      }

      @Override
      public boolean transactional() {
        return sqlite.transactional();
      }

      @Override
      public String describe() {
        return "the embedded storage, its stores' calls intercepted (" + name + ")";
      }

      @Override
      public void close() {
        sqlite.close();
      }
    };
  }
}
