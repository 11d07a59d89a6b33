package io.toa4j.runtime;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.spi.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A context's components compiled and bound: their operations, events and receivers, checked
 * against each other before any engine is opened, so a context that does not fit leaves no state
 * behind. {@link #components} then gives the hosted ones their stores.
 *
 * @param manifests the components as declared, sorted by label
 * @param operations every component's operations, by label
 * @param announcements every component's events, by label, and the built-in {@code
 *     system.messages}'s
 * @param receptions every receiver of the context
 * @param observed the labels of events published though no receiver of the context consumes them,
 *     for an observer of the bus (see {@link ToaBuilder#announceAll()})
 * @param codes the components' classes, whose loaders {@link #close()} closes
 */
record Assembly(
    List<ComponentManifest> manifests,
    Map<String, Map<String, Operation>> operations,
    Map<String, Announcements> announcements,
    List<Reception> receptions,
    Set<String> observed,
    List<ComponentCode> codes)
    implements AutoCloseable {

  /**
   * Compiles (or finds on the class path) and binds every component.
   *
   * @param classes where compiled component sources are cached
   * @throws StartupException when code does not compile or does not fit its manifest
   */
  static Assembly bind(List<ComponentManifest> manifests, Path classes) {
    Map<String, ComponentCode> codes = new LinkedHashMap<>();
    try {
      Map<String, Map<String, Operation>> operations = new LinkedHashMap<>();
      Map<String, Announcements> announcements = new LinkedHashMap<>();
      for (ComponentManifest manifest : manifests) {
        ComponentCode code = ComponentCode.load(manifest, classes);
        codes.put(manifest.label(), code);
        operations.put(manifest.label(), Components.bind(manifest, code));
        announcements.put(manifest.label(), Announcements.bind(manifest, code));
      }
      announcements.put(
          SystemMessages.LABEL, SystemMessages.announcements()); // received like any component's
      List<Reception> receptions = new ArrayList<>();
      for (ComponentManifest manifest : manifests) {
        receptions.addAll(Reception.bind(manifest, codes.get(manifest.label()), announcements));
      }
      return new Assembly(
          List.copyOf(manifests),
          Map.copyOf(operations),
          Map.copyOf(announcements),
          List.copyOf(receptions),
          Set.of(),
          List.copyOf(codes.values()));
    } catch (RuntimeException | Error e) {
      codes
          .values()
          .forEach(ComponentCode::close); // a context that does not fit keeps no loader open
      throw e;
    }
  }

  /**
   * Closes every component's class loader; for the context's close, once nothing runs their code.
   */
  @Override
  public void close() {
    codes.forEach(ComponentCode::close);
  }

  /** The same components, publishing every event each of them announces, consumed or not. */
  Assembly announcingAll() {
    Set<String> all = new HashSet<>();
    announcements.forEach(
        (label, announced) -> announced.names().forEach(name -> all.add(label + "." + name)));
    return new Assembly(manifests, operations, announcements, receptions, Set.copyOf(all), codes);
  }

  /**
   * The labels of the events published: those some receiver of the context consumes, and the
   * observed ones.
   */
  Set<String> consumed() {
    Set<String> consumed =
        receptions.stream().map(Reception::label).collect(Collectors.toCollection(HashSet::new));
    consumed.addAll(observed);
    return consumed;
  }

  /**
   * The components, the hosted ones with their stores on the storage.
   *
   * @throws StartupException when a hosted component needs transactions the storage does not have
   */
  Map<String, Component> components(Storage storage, Set<String> hosted) {
    Set<String> consumed = consumed();
    Map<String, Component> components = new LinkedHashMap<>();
    for (ComponentManifest manifest : manifests) {
      Announcements announced = announcements.get(manifest.label());
      Set<String> mine = new HashSet<>();
      for (String name : announced.names()) {
        if (consumed.contains(manifest.label() + "." + name))
          mine.add(manifest.label() + "." + name);
      }
      boolean once =
          operations.get(manifest.label()).values().stream()
              .anyMatch(o -> o.declaration().once().isPresent());
      boolean here = hosted.contains(manifest.label());
      if (here) requireTransactions(manifest.label(), once, !mine.isEmpty(), storage);
      components.put(
          manifest.label(),
          new Component(
              manifest,
              operations.get(manifest.label()),
              manifest.entity().filter(e -> here).map(e -> storage.store(manifest.label())),
              announced,
              Set.copyOf(mine)));
    }
    return Map.copyOf(components);
  }

  /**
   * Refuses a component whose declarations need rows committed with its records (an inbox for once,
   * an outbox for consumed events) on a storage that cannot commit them together.
   */
  static void requireTransactions(
      String component, boolean once, boolean announces, Storage storage) {
    if (storage.transactional()) return;
    if (once) {
      throw new StartupException(
          "Component "
              + component
              + " declares once, which needs an inbox committed with its records, but "
              + storage.describe()
              + " has no transactions; use a transactional storage, or remove once");
    }
    if (announces) {
      throw new StartupException(
          "Component "
              + component
              + " announces events that are consumed, which needs an outbox committed with"
              + " its records, but "
              + storage.describe()
              + " has no transactions; use a transactional storage");
    }
  }
}
