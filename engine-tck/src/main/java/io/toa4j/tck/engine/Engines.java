package io.toa4j.tck.engine;

import io.toa4j.manifest.ContextManifest;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.runtime.ToaBuilder;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.tck.bus.InterceptedBus;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The pair of engines under test: the storage and the bus, each by its provider's name and with its
 * options, as a context's {@code storage:} and {@code bus:} give them. Every suite asks its test
 * for one, and boots its contexts on it; the process's {@code TOA_*} variables are not read.
 *
 * @param storage the storage provider's name, such as {@code mariadb}
 * @param storageOptions the storage's options, such as its {@code url}
 * @param bus the bus provider's name, such as {@code rabbitmq}
 * @param busOptions the bus's options
 */
public record Engines(
    String storage,
    Map<String, String> storageOptions,
    String bus,
    Map<String, String> busOptions) {
  public Engines {
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(bus, "bus");
    storageOptions = Map.copyOf(storageOptions);
    busOptions = Map.copyOf(busOptions);
  }

  /** The embedded engines: SQLite files and the embedded bus, in the context's state folder. */
  public static Engines embedded() {
    return new Engines(
        ContextManifest.DEFAULT_STORAGE, Map.of(), ContextManifest.DEFAULT_BUS, Map.of());
  }

  /** Whether the bus is one that several processes share ({@link Bus.Capability#DISTRIBUTED}). */
  boolean distributed() {
    return ServiceLoader.load(BusProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(provider -> provider.name().equals(bus))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + bus + " bus on the class path"))
        .capabilities()
        .contains(Bus.Capability.DISTRIBUTED);
  }

  /** A builder of the context in {@code folder} on these engines, with these options. */
  ToaBuilder builder(Path folder, Options options) {
    return Toa.builder()
        .directory(folder)
        .storage(storage, storageOptions)
        .bus(bus, busOptions)
        .options(options.withEnvironment(Map.of()));
  }

  /**
   * As {@link #builder(Path, Options)}, the bus replaced by {@code intercepted}, which wraps this
   * one ({@link InterceptedBus}: made with {@link #bus()} as its real bus).
   */
  ToaBuilder builder(Path folder, Options options, InterceptedBus intercepted) {
    return builder(folder, options).engine(intercepted).bus(intercepted.name(), busOptions);
  }
}
