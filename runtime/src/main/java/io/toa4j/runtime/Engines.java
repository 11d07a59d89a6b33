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

  static Engines open(ContextManifest context, Path state, Clock clock) {
    Storage storage =
        find(StorageProvider.class, StorageProvider::name, context.storage(), context, "storage", "toa4j-storage-")
            .open(new StorageSettings(state, Map.of()));
    try {
      Bus bus =
          find(BusProvider.class, BusProvider::name, context.bus(), context, "bus", "toa4j-bus-")
              .open(new BusSettings(state, Map.of(), clock));
      return new Engines(storage, bus);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** Opens only the bus, for looking at parked messages without booting the components. */
  static Bus bus(ContextManifest context, Clock clock) {
    return find(BusProvider.class, BusProvider::name, context.bus(), context, "bus", "toa4j-bus-")
        .open(new BusSettings(context.directory().resolve(".toa"), Map.of(), clock));
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
