package io.toa4j.runtime;

import io.toa4j.manifest.EngineDeclaration;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.UnreachableException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the engines a context names, with their options, through the registry's providers. */
final class Engines {
  private static final Logger LOG = LoggerFactory.getLogger(Engines.class);
  private static final long FIRST_DELAY_MILLIS = 500;

  /**
   * At most this long between attempts, so a process is serving within a second of its server's
   * return.
   */
  private static final long LONGEST_DELAY_MILLIS = 1_000;

  private Engines() {}

  /**
   * Opens the storage, waiting for its server as the options allow.
   *
   * @throws StartupException when the engine refuses its options, naming where they are declared
   */
  static Storage storage(
      StorageProvider provider,
      EngineDeclaration engine,
      Path state,
      Options options,
      boolean patient) {
    StorageSettings settings = new StorageSettings(state, engine.options());
    return open(
        "the storage (" + engine.name() + ")",
        engine,
        options,
        patient,
        () -> provider.open(settings));
  }

  /**
   * Opens the bus, waiting for its server as the options allow.
   *
   * @throws StartupException when the engine refuses its options, naming where they are declared
   */
  static Bus bus(
      BusProvider provider,
      EngineDeclaration engine,
      Path state,
      Options options,
      boolean patient) {
    BusSettings settings = new BusSettings(state, engine.options(), options.clock());
    return open(
        "the bus (" + engine.name() + ")", engine, options, patient, () -> provider.open(settings));
  }

  private static <T> T open(
      String what, EngineDeclaration engine, Options options, boolean patient, Supplier<T> open) {
    try {
      return patient ? patiently(what, options, open) : open.get();
    } catch (IllegalArgumentException e) {
      throw new StartupException(
          engine.location() + ": " + what + " refused its options: " + e.getMessage(), e);
    }
  }

  /**
   * Opens an engine, and while its server cannot be reached, waits and tries again — after 0.5 s,
   * then every second — for as long as the options allow. The first failed attempt is logged as a
   * WARN with the adapter's message, which names the server without its password; the ones after it
   * only at DEBUG; reaching the server at last is one INFO.
   *
   * @throws UnreachableException when the server still cannot be reached when the wait is over
   */
  static <T> T patiently(String what, Options options, Supplier<T> open) {
    Instant start = options.clock().instant();
    for (int attempt = 1; ; attempt++) {
      try {
        T opened = open.get();
        if (attempt > 1)
          LOG.info(
              "Reached {} at attempt {}, after {} s",
              what,
              attempt,
              Duration.between(start, options.clock().instant()).toSeconds());
        return opened;
      } catch (UnreachableException e) {
        Duration waited = Duration.between(start, options.clock().instant());
        if (waited.compareTo(options.startupWait()) >= 0) throw e;
        long delay = Math.min(FIRST_DELAY_MILLIS << Math.min(attempt - 1, 5), LONGEST_DELAY_MILLIS);
        if (attempt == 1) {
          LOG.warn(
              "Waiting for {}: trying again every second until it answers. {}",
              what,
              e.getMessage());
        } else {
          LOG.debug(
              "Waiting for {}: attempt {} failed, {} s so far. {}",
              what,
              attempt,
              waited.toSeconds(),
              e.getMessage());
        }
        try {
          options.sleeper().sleep(delay);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new StartupException(
              "Interrupted while waiting for " + what + ": " + e.getMessage(), e);
        }
      }
    }
  }
}
