package io.toa4j.runtime;

import io.toa4j.manifest.EngineDeclaration;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.StorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The engines a runtime can open, by name: the providers found with {@link ServiceLoader} and those
 * given in code. The runtime lists no engine of its own; a storage or bus is a module on the class
 * path, or a provider handed to the builder.
 *
 * <p>Immutable and thread-safe.
 */
final class EngineRegistry {
  private final Map<String, StorageProvider> storages;
  private final Map<String, BusProvider> buses;

  private EngineRegistry(Map<String, StorageProvider> storages, Map<String, BusProvider> buses) {
    this.storages = storages;
    this.buses = buses;
  }

  /**
   * The providers on the class path and the given ones.
   *
   * @throws StartupException when two providers of one kind share a name
   */
  static EngineRegistry of(
      ClassLoader loader, List<StorageProvider> storages, List<BusProvider> buses) {
    List<StorageProvider> allStorages = new ArrayList<>(storages);
    ServiceLoader.load(StorageProvider.class, loader).forEach(allStorages::add);
    List<BusProvider> allBuses = new ArrayList<>(buses);
    ServiceLoader.load(BusProvider.class, loader).forEach(allBuses::add);
    return new EngineRegistry(
        byName(allStorages, StorageProvider::name, "storage"),
        byName(allBuses, BusProvider::name, "bus"));
  }

  /**
   * The storage engine the declaration names.
   *
   * @throws StartupException naming the engines found when there is none of that name
   */
  StorageProvider storage(EngineDeclaration engine) {
    return find(storages, engine, "storage", "toa4j-storage-");
  }

  /**
   * The bus the declaration names.
   *
   * @throws StartupException naming the buses found when there is none of that name
   */
  BusProvider bus(EngineDeclaration engine) {
    return find(buses, engine, "bus", "toa4j-bus-");
  }

  private static <P> Map<String, P> byName(
      List<P> providers, Function<P, String> name, String kind) {
    Map<String, P> byName = new TreeMap<>();
    for (P provider : providers) {
      P twin = byName.putIfAbsent(name.apply(provider), provider);
      if (twin != null && twin.getClass() != provider.getClass()) {
        throw new StartupException(
            "Two "
                + kind
                + " engines are named '"
                + name.apply(provider)
                + "': "
                + twin.getClass().getName()
                + " and "
                + provider.getClass().getName()
                + "; keep one of them on the class path, or give the builder another");
      }
    }
    return Map.copyOf(byName);
  }

  private static <P> P find(
      Map<String, P> known, EngineDeclaration engine, String kind, String module) {
    P provider = known.get(engine.name());
    if (provider != null) return provider;
    throw new StartupException(
        engine.location()
            + ": there is no "
            + kind
            + " engine '"
            + engine.name()
            + "' (found: "
            + (known.isEmpty()
                ? "none"
                : String.join(", ", new java.util.TreeSet<>(known.keySet())))
            + "); add the module that provides it, such as "
            + module
            + engine.name()
            + ", to the class path, or name one of those");
  }
}
