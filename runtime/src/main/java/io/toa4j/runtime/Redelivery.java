package io.toa4j.runtime;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The outboxes of a context's components as an operator reaches them: the recent entries, and
 * entries delivered again.
 *
 * <p>Delivering an entry again marks it unpublished in its store ({@link Store#republish}); the
 * publisher of a process hosting the component sends it as it sends any entry left unpublished,
 * under the identities it had, so a receiver's {@code once} recognises the repeat. Marking is one
 * write, durable when it answers: a redelivery asked of a context no process runs happens when one
 * next does, and one whose publisher dies on the way is swept by another. It needs no component
 * code, only the manifests and the storage, so a context that hosts nothing does it too.
 * Thread-safe.
 */
final class Redelivery {
  /** The most entries one listing, or one redelivery of a component's last entries, takes. */
  static final int MOST = 1000;

  private final ContextManifest context;
  private final Supplier<Storage> storage;
  private final Set<String> consumed;
  private final Clock clock;

  /**
   * @param storage the context's storage, opened when first asked for
   * @param consumed the labels of the events the context publishes
   */
  Redelivery(
      ContextManifest context, Supplier<Storage> storage, Set<String> consumed, Clock clock) {
    this.context = context;
    this.storage = storage;
    this.consumed = Set.copyOf(consumed);
    this.clock = clock;
  }

  /**
   * The labels of the events some receiver of the context consumes, as its manifests declare them.
   */
  static Set<String> consumed(ContextManifest context) {
    Set<String> labels = new TreeSet<>();
    context.components().forEach(c -> c.receivers().forEach(r -> labels.add(r.label())));
    return labels;
  }

  /**
   * The newest entries of every component with an entity, or of one, newest first; at most {@code
   * limit}.
   */
  List<Outboxed> recent(Optional<String> component, int limit) {
    bounded("list", limit);
    List<Outboxed> recent = new ArrayList<>();
    for (ComponentManifest manifest : stateful(component)) {
      for (RecentEntry entry : store(manifest).recent(limit)) recent.add(describe(manifest, entry));
    }
    recent.sort(Comparator.comparing(Outboxed::id).reversed());
    return List.copyOf(recent.subList(0, Math.min(limit, recent.size())));
  }

  /**
   * How many entries of each component with an entity are committed and not yet published, asked of
   * the storage, so it covers the components every process hosts; sorted by label.
   */
  SortedMap<String, Long> backlogs() {
    SortedMap<String, Long> backlogs = new TreeMap<>();
    for (ComponentManifest manifest : stateful(Optional.empty()))
      backlogs.put(manifest.label(), store(manifest).unpublishedCount());
    return backlogs;
  }

  /**
   * Marks the entry with this id to be published again; the label of its component, or empty for
   * none.
   */
  Optional<String> redeliver(String id) {
    for (ComponentManifest manifest : stateful(Optional.empty())) {
      if (store(manifest).republish(List.of(id), clock.millis()) > 0)
        return Optional.of(manifest.label());
    }
    return Optional.empty();
  }

  /**
   * Marks the component's last {@code count} entries to be published again, which the publisher
   * does oldest first.
   *
   * @return their ids, oldest first; fewer when the component has fewer
   */
  List<String> redeliverLast(String component, int count) {
    bounded("deliver again", count);
    ComponentManifest manifest = stateful(Optional.of(component)).get(0);
    Store store = store(manifest);
    List<String> ids = new ArrayList<>();
    for (RecentEntry entry : store.recent(count)) ids.add(0, entry.entry().id());
    store.republish(ids, clock.millis());
    return List.copyOf(ids);
  }

  private static void bounded(String what, int count) {
    if (count < 1 || count > MOST) {
      throw new IllegalArgumentException(
          "the number of outbox entries to " + what + " is from 1 to " + MOST + "; got " + count);
    }
  }

  /**
   * The components with an entity (which alone keep an outbox): all of them, or the one named.
   *
   * @throws IllegalArgumentException when the one named is not a component of the context, or keeps
   *     no state
   */
  private List<ComponentManifest> stateful(Optional<String> named) {
    if (named.isEmpty())
      return context.components().stream().filter(c -> c.entity().isPresent()).toList();
    String label = label(named.get());
    Set<String> known = new TreeSet<>();
    for (ComponentManifest manifest : context.components()) {
      if (!manifest.label().equals(label)) {
        known.add(manifest.label());
      } else if (manifest.entity().isEmpty()) {
        throw new IllegalArgumentException(
            "Component "
                + label
                + " keeps no state, so it has no outbox: only a component with an entity sends after a commit");
      } else {
        return List.of(manifest);
      }
    }
    throw new IllegalArgumentException(
        "Context "
            + context.name()
            + " has no component '"
            + named.get()
            + "'; it has "
            + String.join(", ", known));
  }

  /** A component's full label: {@code name} alone is in the default namespace. */
  static String label(String named) {
    return named.indexOf('.') < 0 ? "default." + named : named;
  }

  private Store store(ComponentManifest manifest) {
    return storage.get().store(manifest.label());
  }

  private Outboxed describe(ComponentManifest manifest, RecentEntry recent) {
    var entry = recent.entry();
    List<Outboxed.Message> events = new ArrayList<>();
    entry
        .change()
        .ifPresent(
            change -> {
              ObjectNode fact = Binding.object(change);
              boolean creation = !fact.path("origin").isObject();
              String prefix = manifest.label() + ".";
              for (String label : consumed) {
                if (!label.startsWith(prefix) || label.indexOf('.', prefix.length()) >= 0) continue;
                String name = label.substring(prefix.length());
                if (name.equals(creation ? Announcements.UPDATED : Announcements.CREATED)) continue;
                events.add(new Outboxed.Message(label, Identities.derive(entry.id(), label)));
              }
            });
    List<Outboxed.Message> tasks = new ArrayList<>();
    for (Task task : Task.decode(entry.tasks()))
      tasks.add(new Outboxed.Message(task.endpoint(), task.identity()));
    return new Outboxed(
        manifest.label(),
        entry.id(),
        Instant.ofEpochMilli(entry.created()),
        recent.published().isPresent()
            ? Optional.of(Instant.ofEpochMilli(recent.published().getAsLong()))
            : Optional.empty(),
        events,
        tasks);
  }
}
