package io.toa4j.runtime;

import io.toa4j.manifest.ContextManifest;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.UnreachableException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The storage and the bus a context names, found with {@link ServiceLoader} and opened. */
record Engines(Storage storage, Bus bus) implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engines.class);
  private static final long FIRST_DELAY_MILLIS = 500;
  private static final long LONGEST_DELAY_MILLIS = 10_000;

  /**
   * Opens the storage and the bus the context names, or those the environment names instead
   * ({@code TOA_STORAGE}, {@code TOA_STORAGE_URL}, {@code TOA_BUS}, {@code TOA_BUS_URL}).
   */
  static Engines open(ContextManifest context, Path state, Options options) {
    Map<String, String> env = options.environment();
    String storageName = env.getOrDefault("TOA_STORAGE", context.storage());
    StorageProvider storageProvider = find(StorageProvider.class, StorageProvider::name, storageName, context, "storage", "toa4j-storage-");
    StorageSettings storageSettings = new StorageSettings(state, url(env.get("TOA_STORAGE_URL"), context.storageUrl()));
    Storage storage = patiently("the storage (" + storageName + ")", options, () -> storageProvider.open(storageSettings));
    try {
      String busName = env.getOrDefault("TOA_BUS", context.bus());
      BusProvider busProvider = find(BusProvider.class, BusProvider::name, busName, context, "bus", "toa4j-bus-");
      BusSettings busSettings = new BusSettings(state, url(env.get("TOA_BUS_URL"), context.busUrl()), options.clock());
      Bus bus = patiently("the bus (" + busName + ")", options, () -> busProvider.open(busSettings));
      return new Engines(storage, bus);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /**
   * Opens an engine, and while its server cannot be reached, waits and tries again — after 0.5 s,
   * then twice as long each time up to 10 s — for as long as the options allow; each failed attempt
   * is logged with the adapter's message, which names the server without its password.
   *
   * @throws UnreachableException when the server still cannot be reached when the wait is over
   */
  static <T> T patiently(String what, Options options, Supplier<T> open) {
    Instant start = options.clock().instant();
    for (int attempt = 1; ; attempt++) {
      try {
        T opened = open.get();
        if (attempt > 1) LOG.info("Reached {} at attempt {}", what, attempt);
        return opened;
      } catch (UnreachableException e) {
        Duration waited = Duration.between(start, options.clock().instant());
        if (waited.compareTo(options.startupWait()) >= 0) throw e;
        long delay = Math.min(FIRST_DELAY_MILLIS << Math.min(attempt - 1, 5), LONGEST_DELAY_MILLIS);
        LOG.warn("Waiting for {}: trying again in {} ms (attempt {}, {} s so far). {}",
            what, delay, attempt, waited.toSeconds(), e.getMessage());
        try {
          options.sleeper().sleep(delay);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new StartupException("Interrupted while waiting for " + what + ": " + e.getMessage(), e);
        }
      }
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
