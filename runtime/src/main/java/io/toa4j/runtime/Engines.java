package io.toa4j.runtime;

import io.toa4j.manifest.ContextManifest;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;

/** The storage and the bus a context names, found with {@link ServiceLoader} and opened. */
record Engines(Storage storage, Bus bus) implements AutoCloseable {

  /**
   * Opens the storage and the bus the context names, or those the environment names instead
   * ({@code TOA_STORAGE}, {@code TOA_STORAGE_URL}, {@code TOA_BUS}, {@code TOA_BUS_URL}).
   */
  static Engines open(ContextManifest context, Path state, Options options) {
    Map<String, String> env = options.environment();
    String storageName = env.getOrDefault("TOA_STORAGE", context.storage());
    Storage storage =
        find(StorageProvider.class, StorageProvider::name, storageName, context, "storage", "toa4j-storage-")
            .open(new StorageSettings(state, url(env.get("TOA_STORAGE_URL"), context.storageUrl())));
    try {
      String busName = env.getOrDefault("TOA_BUS", context.bus());
      Bus bus =
          find(BusProvider.class, BusProvider::name, busName, context, "bus", "toa4j-bus-")
              .open(new BusSettings(state, url(env.get("TOA_BUS_URL"), context.busUrl()), options.clock()));
      return new Engines(storage, bus);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** Opens only the bus, for looking at parked messages without booting the components. */
  static Bus bus(ContextManifest context, Map<String, String> env, Clock clock) {
    return find(BusProvider.class, BusProvider::name, env.getOrDefault("TOA_BUS", context.bus()), context, "bus", "toa4j-bus-")
        .open(new BusSettings(context.directory().resolve(".toa"), url(env.get("TOA_BUS_URL"), context.busUrl()), clock));
  }

  /** The {@code url} option: the environment's, else the context's, else none (the adapter's default). */
  private static Map<String, String> url(String fromEnvironment, java.util.Optional<String> fromContext) {
    if (fromEnvironment != null && !fromEnvironment.isBlank()) return Map.of("url", fromEnvironment);
    return fromContext.map(u -> Map.of("url", u)).orElse(Map.of());
  }

  private static <P> P find(
      Class<P> type, Function<P, String> name, String wanted, ContextManifest context, String key, String module) {
    List<String> known = new ArrayList<>();
    for (P provider : ServiceLoader.load(type, Engines.class.getClassLoader())) {
      if (name.apply(provider).equals(wanted)) return provider;
      known.add(name.apply(provider));
    }
    throw new StartupException(
        context.file() + " at " + key + ": there is no " + key + " engine '" + wanted + "' on the class path (found: "
            + (known.isEmpty() ? "none" : String.join(", ", known)) + "); add its " + module + wanted
            + " module, or use one of those");
  }

  @Override
  public void close() {
    try {
      bus.close();
    } finally {
      storage.close();
    }
  }
}
