package io.toa4j.runtime;

import io.toa4j.api.Change;
import io.toa4j.api.Entry;
import io.toa4j.api.Event;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.Location;
import io.toa4j.spi.Message;
import io.toa4j.spi.OutboxEntry;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The events one component announces, and how they are rendered from an outbox entry.
 *
 * <p>Every entity announces {@code created} (a write with no origin) and {@code updated} (a write
 * with one). An {@code events/<Name>.java} class implementing {@link Event} adds an event with its
 * own condition and payload; a name listed under {@code events} without a class occurs on every
 * write and carries the state. A component compiled with the application (found on the class path)
 * has its event classes found by the names its manifest lists: {@code events: { paid: }} finds
 * {@code billing.topups.events.Paid}.
 */
final class Announcements {
  static final String CREATED = "created";

  /**
   * The header of an event or a task that holds when it was committed (or, for a task of a run that
   * commits nothing, sent), in epoch milliseconds: where its delivery lag starts.
   */
  static final String COMMITTED = "committed";

  static final String UPDATED = "updated";

  /** One event of the component; {@code code} is empty for the generic and class-less ones. */
  record Announced(
      String label,
      String name,
      Optional<Event<Entry>> code,
      Optional<Class<? extends Entry>> entity) {}

  private final Map<String, Announced> events;

  /**
   * Whether an event occurs when the record's {@code state} property names it (a built-in
   * component's), not as declared.
   */
  private final boolean byState;

  private Announcements(Map<String, Announced> events, boolean byState) {
    this.events = events;
    this.byState = byState;
  }

  private Announcements(Map<String, Announced> events) {
    this(events, false);
  }

  static Announcements none() {
    return new Announcements(Map.of());
  }

  /**
   * The events of a built-in component whose records carry a {@code state}: the event named after
   * the state a write leaves the record in occurs, carrying the record ({@link SystemMessages}).
   */
  static Announcements byState(String label, List<String> states) {
    Map<String, Announced> events = new LinkedHashMap<>();
    for (String state : states)
      events.put(
          state, new Announced(label + "." + state, state, Optional.empty(), Optional.empty()));
    return new Announcements(Map.copyOf(events), true);
  }

  /** Binds the component's event classes; fails at boot on a class that does not fit. */
  static Announcements bind(ComponentManifest manifest, ComponentCode code) {
    if (manifest.entity().isEmpty()) {
      if (!code.simpleNamesIn("events").isEmpty() || !manifest.events().isEmpty()) {
        throw new StartupException(
            new Location(manifest.file(), "events")
                + ": only a component with an entity announces events; declare its entity, or remove the events");
      }
      return none();
    }
    Map<String, Announced> events = new LinkedHashMap<>();
    events.put(
        CREATED,
        new Announced(
            manifest.label() + "." + CREATED, CREATED, Optional.empty(), Optional.empty()));
    events.put(
        UPDATED,
        new Announced(
            manifest.label() + "." + UPDATED, UPDATED, Optional.empty(), Optional.empty()));
    for (String name : manifest.events()) {
      // a class-path component's classes cannot be listed: its event classes are found by the names
      // its manifest lists
      Optional<Class<?>> type =
          code.find("events", Character.toUpperCase(name.charAt(0)) + name.substring(1));
      events.put(
          name,
          type.isPresent()
              ? authored(manifest, name, type.get())
              : new Announced(
                  manifest.label() + "." + name, name, Optional.empty(), Optional.empty()));
    }
    for (String simple : code.simpleNamesIn("events")) {
      String name = Character.toLowerCase(simple.charAt(0)) + simple.substring(1);
      Class<?> type = code.find("events", simple).orElseThrow();
      events.put(name, authored(manifest, name, type));
    }
    return new Announcements(Map.copyOf(events));
  }

  @SuppressWarnings("unchecked")
  private static Announced authored(ComponentManifest manifest, String name, Class<?> type) {
    String where =
        manifest.directory().resolve("events").resolve(type.getSimpleName() + ".java").toString();
    if (!Event.class.isAssignableFrom(type)) {
      throw new StartupException(
          where + ": " + type.getName() + " must implement io.toa4j.api.Event<" + "YourEntity>");
    }
    Class<? extends Entry> entity = null;
    for (Type t : type.getGenericInterfaces()) {
      if (t instanceof ParameterizedType p
          && p.getRawType() == Event.class
          && p.getActualTypeArguments()[0] instanceof Class<?> c) {
        entity = (Class<? extends Entry>) c;
      }
    }
    if (entity == null || entity == Entry.class) {
      throw new StartupException(
          where
              + ": "
              + type.getName()
              + " must implement Event with its entity class, such as Event<Topup>");
    }
    List<String> problems = Shapes.mismatches(entity, manifest.entity().orElseThrow().properties());
    if (!problems.isEmpty()) {
      throw new StartupException(
          where
              + ": "
              + entity.getName()
              + " does not fit the entity: "
              + String.join("; ", problems));
    }
    try {
      var constructor = type.getDeclaredConstructor();
      constructor.setAccessible(true);
      return new Announced(
          manifest.label() + "." + name,
          name,
          Optional.of((Event<Entry>) constructor.newInstance()),
          Optional.of(entity));
    } catch (ReflectiveOperationException e) {
      throw new StartupException(
          where + ": " + type.getName() + " needs a constructor without arguments", e);
    }
  }

  /** The event with this name, if the component announces it. */
  Optional<Announced> get(String name) {
    return Optional.ofNullable(events.get(name));
  }

  Set<String> names() {
    return events.keySet();
  }

  /**
   * The messages of the consumed events that the entry's change is an occurrence of; none for an
   * entry without a change. Their identities derive from the entry's id and the event's label, so
   * rendering an entry again yields the same messages.
   *
   * @throws RuntimeException when a condition or a payload throws; the entry stays unpublished
   */
  List<Message> render(OutboxEntry entry, Set<String> consumed) {
    return render(entry, null, consumed);
  }

  /**
   * As {@link #render(OutboxEntry, Set)}, from the entry's change as a tree when {@code built} is
   * not null.
   */
  List<Message> render(OutboxEntry entry, ObjectNode built, Set<String> consumed) {
    List<Message> messages = new ArrayList<>();
    if (entry.change().isEmpty()) return messages; // an entry of tasks alone announces nothing
    ObjectNode change = built != null ? built : Binding.object(entry.change().get());
    boolean creation = change.path("origin").isNull() || change.path("origin").isMissingNode();
    JsonNode state = change.get("state");
    for (Announced event : events.values()) {
      if (!consumed.contains(event.label())) continue;
      JsonNode payload;
      if (byState) {
        if (!event.name().equals(state.path("state").asString(""))) continue;
        payload = state;
      } else if (event.name().equals(CREATED) && event.code().isEmpty()) {
        if (!creation) continue;
        payload = state;
      } else if (event.name().equals(UPDATED) && event.code().isEmpty()) {
        if (creation) continue;
        payload = state;
      } else if (event.code().isPresent()) {
        BoundChange bound = new BoundChange(event.entity().orElseThrow(), change);
        if (!event.code().get().condition(bound)) continue;
        Object value = event.code().get().payload(bound);
        payload = value instanceof Entry e ? Binding.view(e) : Binding.tree(value);
      } else {
        payload = state;
      }
      messages.add(
          new Message(
              Identities.derive(entry.id(), event.label()),
              event.label(),
              Binding.json(payload),
              Map.of(
                  "version",
                  state.path(Binding.VERSION).asString(),
                  COMMITTED,
                  Long.toString(entry.created()))));
    }
    return messages;
  }

  /** The outbox change {@code { origin, state, input, trailers }} of a write. */
  static ObjectNode change(
      JsonNode origin, ObjectNode state, JsonNode input, Map<String, Object> trailers) {
    ObjectNode change = Binding.VALUES.createObjectNode();
    change.set("origin", origin);
    change.set("state", state);
    change.set("input", input.isMissingNode() ? Binding.VALUES.nullNode() : input);
    change.set("trailers", Binding.tree(trailers));
    return change;
  }

  /** A change as the author's event class sees it, bound to its entity class. */
  private static final class BoundChange implements Change<Entry> {
    private final Optional<Entry> origin;
    private final Entry state;
    private final Optional<Object> input;
    private final Map<String, Object> trailers;

    @SuppressWarnings("unchecked")
    BoundChange(Class<? extends Entry> entity, ObjectNode change) {
      JsonNode o = change.path("origin");
      this.origin =
          o.isObject() ? Optional.of(Binding.entity(entity, (ObjectNode) o)) : Optional.empty();
      this.state = Binding.entity(entity, (ObjectNode) change.get("state"));
      JsonNode i = change.path("input");
      this.input =
          i.isMissingNode() || i.isNull() ? Optional.empty() : Optional.of(Binding.plain(i));
      this.trailers = (Map<String, Object>) Binding.plain(change.path("trailers"));
    }

    @Override
    public Optional<Entry> origin() {
      return origin;
    }

    @Override
    public Entry state() {
      return state;
    }

    @Override
    public Optional<Object> input() {
      return input;
    }

    @Override
    public Map<String, Object> trailers() {
      return trailers;
    }
  }
}
