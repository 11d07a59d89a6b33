package io.toa4j.runtime;

import io.toa4j.manifest.ContextManifest;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which components of a context a process hosts, checked against the context and its bus at boot.
 */
final class Hosting {
  private Hosting() {}

  /**
   * The full labels of the components to host; all of them when none is named.
   *
   * @throws StartupException when a label names no component of the context
   */
  static Set<String> of(ContextManifest context, Collection<String> named) {
    Set<String> known = new TreeSet<>();
    context.components().forEach(c -> known.add(c.label()));
    if (named.isEmpty()) return Set.copyOf(known);
    Set<String> hosting = new TreeSet<>();
    for (String label : named) {
      String full = label.indexOf('.') < 0 ? "default." + label : label;
      if (!known.contains(full)) {
        throw new StartupException(
            "Context "
                + context.name()
                + " has no component '"
                + label
                + "' to host; it has "
                + String.join(", ", known));
      }
      hosting.add(full);
    }
    return Set.copyOf(hosting);
  }

  /**
   * Refuses a subset on a bus that one process consumes (the embedded one): that process hosts
   * every component, or some would be hosted by nobody.
   */
  static void requireShared(ContextManifest context, Set<String> hosting, BusProvider bus) {
    if (hosting.size() == context.components().size()
        || bus.capabilities().contains(Bus.Capability.DISTRIBUTED)) return;
    throw new StartupException(
        "Context "
            + context.name()
            + " runs on the "
            + bus.name()
            + " bus, which one process consumes: it hosts every"
            + " component, so it cannot host only "
            + String.join(", ", new TreeSet<>(hosting))
            + "; run it without naming components, or choose a bus that processes share (bus: rabbitmq in "
            + context.file()
            + ", or TOA_BUS=rabbitmq)");
  }

  /**
   * Refuses a subset on a bus that carries no calls ({@link Bus#calls()} empty): the components
   * hosted here call the others, hosted elsewhere, over the bus, and are called so.
   */
  static void requireCalls(ContextManifest context, Set<String> hosting, Bus bus) {
    if (hosting.size() == context.components().size() || bus.calls().isPresent()) return;
    throw new StartupException(
        "Context "
            + context.name()
            + " runs on "
            + bus.describe()
            + ", which carries no calls: a process that hosts only "
            + String.join(", ", new TreeSet<>(hosting))
            + " could neither call the other components nor be called by them;"
            + " run it without naming components, or choose a bus that carries calls");
  }
}
