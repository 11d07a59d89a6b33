package io.toa4j.runtime;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.ReceiverDeclaration;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in component {@code system.messages}: one record per delivery that ever failed, keyed
 * by its delivery identity ({@code SHA-256(message id / queue)}), whose every change of state —
 * parked, replayed, discarded — is a transition over that versioned record that commits the outbox
 * entry of the event {@code system.messages.<state>} with it. The record also keeps what an
 * operator looks at: the newest {@value #KEPT} failures (time, attempt, code, reason), the last
 * failure's trace (classes and frames, never a message), and the newest {@value #KEPT} replays and
 * discards with who made them. A failure that is retried is noted there without a change of state
 * or an event, and a delivery that then goes through without ever parking has its record removed.
 * Any component receives those events like any other ({@code receivers: { system.messages.parked:
 * page }}).
 *
 * <p>Invariants:
 *
 * <ol>
 *   <li><b>Make it so.</b> A transition to the state the record is already in writes nothing, so a
 *       park committed here and lost by the bus (the process died before the bus kept it), then
 *       parked again on redelivery, announces once; so does an operator's replay or discard that is
 *       repeated after a failure.
 *   <li><b>Before the act.</b> The runtime commits the transition before it answers the park
 *       verdict or asks the bus to replay or discard: a failure to commit leaves the message as it
 *       was (a delivery is retried instead of parked), and the outbox publishes what was committed
 *       at least once, whoever dies after.
 *   <li><b>No loop.</b> A message that is itself a {@code system.messages} event is never announced
 *       (see {@link #own}): a receiver of those events that keeps failing would otherwise announce
 *       its own parking forever. Its parking, replay and discard are logged instead.
 * </ol>
 *
 * <p>The records are written whether or not anyone receives the events (the discard's reason is
 * kept there); the outbox entry only when some receiver consumes the event. Thread-safe.
 */
final class SystemMessages {
  static final String LABEL = "system.messages";
  static final String PARKED = "parked";
  static final String REPLAYED = "replayed";
  static final String DISCARDED = "discarded";
  private static final List<String> STATES = List.of(PARKED, REPLAYED, DISCARDED);

  /** How many times a transition lost to a concurrent one is tried again on the fresh record. */
  private static final int TRIES = 8;

  /** The newest failures and operators' actions a record keeps, each. */
  static final int KEPT = 20;

  /** The most frames of one throwable, and the most characters, a failure's trace keeps. */
  static final int FRAMES = 12;

  static final int TRACE = 4000;

  /** The most characters of a failure's reason, or a discard's, a record keeps. */
  static final int REASON = 2000;

  /**
   * Told of an outbox entry after its commit, to publish it at once; a context that hosts nothing
   * has none.
   */
  interface Committed {
    void committed(OutboxEntry entry);

    /**
     * Until when an entry committed at {@code committed} is claimed by this process, which
     * publishes it at once.
     */
    long claimedUntil(long committed);
  }

  private final ContextManifest context;
  private final Supplier<Store> open;
  private volatile Store store;
  private final Set<String> consumed;
  private final Clock clock;
  private final RandomGenerator random;
  private final Optional<Committed> publisher;

  /**
   * @param store the store {@code system.messages} on the context's storage, opened when first
   *     asked for
   * @param consumed the labels of the context's consumed events: those of {@code system.messages}
   *     get an outbox entry
   * @param publisher told of each entry committed, to publish it at once; without one the entry is
   *     left for any running process's sweep
   */
  SystemMessages(
      ContextManifest context,
      Supplier<Store> store,
      Set<String> consumed,
      Clock clock,
      RandomGenerator random,
      Optional<Committed> publisher) {
    this.context = context;
    this.open = store;
    this.consumed = mine(consumed);
    this.clock = clock;
    this.random = random;
    this.publisher = publisher;
  }

  /**
   * The events of {@code system.messages}: each occurs when a write moves the record to its state.
   */
  static Announcements announcements() {
    return Announcements.byState(LABEL, STATES);
  }

  /** {@code system.messages} as the publisher sweeps it, over its store. */
  static Component component(Store store, Set<String> consumed) {
    ComponentManifest manifest =
        new ComponentManifest(
            Path.of(LABEL),
            Path.of("(built in)"),
            "system",
            "messages",
            Optional.empty(),
            Map.of(),
            List.of(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            false);
    return new Component(manifest, Map.of(), Optional.of(store), announcements(), mine(consumed));
  }

  /** Whether, of the context's consumed events, some is an event of {@code system.messages}. */
  static boolean announced(Set<String> consumed) {
    return !mine(consumed).isEmpty();
  }

  private static Set<String> mine(Set<String> consumed) {
    return Set.copyOf(consumed.stream().filter(l -> l.startsWith(LABEL + ".")).toList());
  }

  private Store store() {
    Store opened = store;
    if (opened != null) return opened;
    synchronized (this) {
      if (store == null) store = open.get();
      return store;
    }
  }

  /** Whether the message is an event of {@code system.messages}: its parking is never announced. */
  static boolean own(Message message) {
    return message.label().startsWith(LABEL + ".");
  }

  /** The record of the message delivered on the queue: its delivery identity. */
  static String key(String messageId, String queue) {
    return Identities.derive(messageId, queue);
  }

  /**
   * Notes a failed attempt of a delivery that will be retried, in its record's failures, unless the
   * record has that attempt already; the record's state stays as it is (a message that never parks
   * keeps a record of its failures all the same, so that its parking, when it comes, shows them).
   */
  void failed(Delivery delivery, String code, String reason, Throwable cause) {
    Message message = delivery.message();
    ObjectNode failure = failure(delivery.attempt(), code, reason);
    record(key(message.id(), delivery.queue()), trace(cause), failure);
  }

  /**
   * Forgets the failures noted of a delivery that went through after them, unless it was ever
   * parked: the record goes, so that only deliveries failing now and those ever parked keep one.
   */
  void succeeded(Delivery delivery) {
    Store records = store();
    String id = key(delivery.message().id(), delivery.queue());
    for (int i = 0; i < TRIES; i++) {
      Optional<StoredRecord> current = records.read(id);
      if (current.isEmpty() || Binding.object(current.get().state()).has("state")) return;
      if (records.remove(id, current.get().version())) return;
    }
  }

  /** Commits the delivery's parking, unless its record says parked already. */
  void parked(Delivery delivery, String code, String reason, Throwable cause) {
    long now = clock.millis();
    Message message = delivery.message();
    ObjectNode facts =
        facts(
            message,
            delivery.queue(),
            code,
            reason,
            delivery.attempt(),
            delivery.firstFailed().orElse(now),
            now);
    facts.put("trace", trace(cause));
    transition(
        key(message.id(), delivery.queue()),
        PARKED,
        facts,
        Optional.of(failure(delivery.attempt(), code, reason)),
        Optional.empty());
  }

  /**
   * Commits the parked message's replay by the operator, unless its record says replayed already.
   */
  void replayed(Parked parked, String by) {
    transition(
        key(parked.message().id(), parked.queue()),
        REPLAYED,
        facts(parked),
        Optional.empty(),
        Optional.of(action(REPLAYED, by, Optional.empty())));
  }

  /**
   * Commits the parked message's discard by the operator with the reason, unless its record says
   * discarded already.
   */
  void discarded(Parked parked, String why, String by) {
    ObjectNode facts = facts(parked);
    facts.put("discardReason", cut(why, REASON));
    transition(
        key(parked.message().id(), parked.queue()),
        DISCARDED,
        facts,
        Optional.empty(),
        Optional.of(action(DISCARDED, by, Optional.of(why))));
  }

  /**
   * What the record of a message delivered on a queue keeps of it: its failures, its last failure's
   * trace, and the operators' replays and discards; empty when it has no record.
   */
  Optional<ParkedHistory> history(String messageId, String queue) {
    return store()
        .read(key(messageId, queue))
        .map(
            record -> {
              ObjectNode state = Binding.object(record.state());
              List<ParkedHistory.Failed> failures = new ArrayList<>();
              for (var f : state.path("failures"))
                failures.add(
                    new ParkedHistory.Failed(
                        Instant.parse(f.path("at").asString()),
                        f.path("attempt").asInt(),
                        f.path("code").asString(),
                        f.path("reason").asString()));
              List<ParkedHistory.Action> actions = new ArrayList<>();
              for (var a : state.path("actions"))
                actions.add(
                    new ParkedHistory.Action(
                        Instant.parse(a.path("at").asString()),
                        a.path("action").asString(),
                        a.path("by").asString(),
                        a.hasNonNull("reason")
                            ? Optional.of(a.path("reason").asString())
                            : Optional.empty()));
              String trace = state.path("trace").asString("");
              return new ParkedHistory(
                  failures, trace.isEmpty() ? Optional.empty() : Optional.of(trace), actions);
            });
  }

  private ObjectNode failure(int attempt, String code, String reason) {
    ObjectNode failure = Binding.VALUES.createObjectNode();
    failure.put("at", Instant.ofEpochMilli(clock.millis()).toString());
    failure.put("attempt", attempt);
    failure.put("code", code);
    failure.put("reason", cut(reason, REASON));
    return failure;
  }

  private ObjectNode action(String action, String by, Optional<String> reason) {
    ObjectNode done = Binding.VALUES.createObjectNode();
    done.put("at", Instant.ofEpochMilli(clock.millis()).toString());
    done.put("action", action);
    done.put("by", by);
    reason.ifPresent(r -> done.put("reason", cut(r, REASON)));
    return done;
  }

  /**
   * A failure's trace as the record keeps it: the class of each throwable in the chain and the
   * frames where it was thrown ({@value #FRAMES} at most each, {@value #TRACE} characters in all),
   * and never a throwable's message, which may hold whatever the failing code held (the reason,
   * kept beside it, is what the code chose to say).
   */
  static String trace(Throwable cause) {
    StringBuilder trace = new StringBuilder();
    java.util.Set<Throwable> seen =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Throwable t = cause; t != null && seen.add(t); t = t.getCause()) {
      if (t != cause) trace.append("Caused by: ");
      trace.append(t.getClass().getName()).append('\n');
      StackTraceElement[] frames = t.getStackTrace();
      for (int i = 0; i < Math.min(frames.length, FRAMES); i++)
        trace.append("\tat ").append(frames[i]).append('\n');
      if (frames.length > FRAMES)
        trace.append("\t... ").append(frames.length - FRAMES).append(" more\n");
    }
    return cut(trace.toString(), TRACE);
  }

  private static String cut(String text, int most) {
    return text.length() <= most ? text : text.substring(0, most) + " ...";
  }

  /**
   * Adds a failure to the record's failures (unless it has that attempt) and keeps the trace,
   * leaving its state as it is; a record made here has no state yet.
   */
  private void record(String id, String trace, ObjectNode failure) {
    Store records = store();
    for (int i = 0; i < TRIES; i++) {
      Optional<StoredRecord> current = records.read(id);
      ObjectNode before = current.map(r -> Binding.object(r.state())).orElse(null);
      if (before != null) {
        // a delivery handed over again after its failure was noted (its process died before the
        // bus heard the verdict) is the same attempt: noted once
        JsonNode failures = before.path("failures");
        JsonNode last =
            failures.isEmpty() ? NullNode.getInstance() : failures.get(failures.size() - 1);
        if (last.path("attempt").asInt(-1) == failure.path("attempt").asInt()) return;
      }
      ObjectNode after = before == null ? Binding.VALUES.createObjectNode() : before.deepCopy();
      after.set("failures", appended(after.path("failures"), Optional.of(failure)));
      after.put("trace", trace);
      long version = current.map(StoredRecord::version).orElse(0L);
      StoredRecord next = next(id, current, after, clock.millis());
      if (records.commit(new Write(version, next, Optional.empty())) == Outcome.COMMITTED) return;
    }
    throw new IllegalStateException(
        LABEL
            + ": the record "
            + id
            + " kept changing under "
            + TRIES
            + " tries to note a failure");
  }

  /** The record's next version, holding {@code state}, written at {@code now}. */
  private static StoredRecord next(
      String id, Optional<StoredRecord> current, ObjectNode state, long now) {
    return new StoredRecord(
        id,
        current.map(StoredRecord::version).orElse(0L) + 1,
        current.map(StoredRecord::created).orElse(now),
        now,
        Binding.json(state));
  }

  /** The list with the item added at its end, keeping the newest {@value #KEPT}. */
  private static ArrayNode appended(JsonNode list, Optional<ObjectNode> item) {
    ArrayNode items = Binding.VALUES.createArrayNode();
    list.forEach(items::add);
    item.ifPresent(items::add);
    while (items.size() > KEPT) items.remove(0);
    return items;
  }

  private ObjectNode facts(Parked parked) {
    return facts(
        parked.message(),
        parked.queue(),
        parked.code(),
        parked.reason(),
        parked.attempts(),
        parked.firstFailed(),
        parked.at());
  }

  private ObjectNode facts(
      Message message,
      String queue,
      String code,
      String reason,
      int attempts,
      long first,
      long last) {
    ObjectNode facts = Binding.VALUES.createObjectNode();
    facts.put("message", message.id());
    facts.put("label", message.label());
    facts.put("queue", queue);
    facts.put("operation", target(queue, message));
    facts.put("code", code);
    facts.put("reason", reason);
    facts.put("attempts", attempts);
    facts.put("firstFailure", Instant.ofEpochMilli(first).toString());
    facts.put("lastFailure", Instant.ofEpochMilli(last).toString());
    return facts;
  }

  /**
   * The operation a message on the queue is delivered to: a task's label, or the operation a
   * receiver maps the event to; the queue itself for a queue the context does not know.
   */
  String target(String queue, Message message) {
    if (queue.endsWith("..tasks")) return message.label(); // a task names its operation
    int split = queue.lastIndexOf("..");
    if (split < 0) return queue;
    String event = queue.substring(0, split);
    String component = queue.substring(split + 2);
    for (ComponentManifest manifest : context.components()) {
      if (!manifest.label().equals(component)) continue;
      for (ReceiverDeclaration receiver : manifest.receivers()) {
        if (receiver.label().equals(event)) return component + "." + receiver.operation();
      }
    }
    return queue;
  }

  /** Whether the operation a parked message is delivered to is a continuous effect. */
  boolean continuous(Parked parked) {
    String endpoint = target(parked.queue(), parked.message());
    int dot = endpoint.lastIndexOf('.');
    if (dot < 0) return false;
    String component = endpoint.substring(0, dot);
    String operation = endpoint.substring(dot + 1);
    return context.components().stream()
        .anyMatch(c -> c.label().equals(component) && c.continuous(operation));
  }

  /**
   * Moves the record to the state with these facts, with the event's outbox entry; nothing when it
   * is there already. The failures and the operators' actions the record kept stay, with {@code
   * failure} and {@code action} added.
   */
  private void transition(
      String id,
      String state,
      ObjectNode facts,
      Optional<ObjectNode> failure,
      Optional<ObjectNode> action) {
    Store records = store();
    for (int i = 0; i < TRIES; i++) {
      Optional<StoredRecord> current = records.read(id);
      ObjectNode before = current.map(r -> Binding.object(r.state())).orElse(null);
      if (before != null && state.equals(before.path("state").asString(""))) return;
      long now = clock.millis();
      ObjectNode after = Binding.VALUES.createObjectNode();
      after.put("state", state);
      after.setAll(facts);
      JsonNode kept = before == null ? NullNode.getInstance() : before;
      after.set("failures", appended(kept.path("failures"), failure));
      after.set("actions", appended(kept.path("actions"), action));
      if (!after.has("trace") && kept.has("trace")) after.set("trace", kept.get("trace"));
      long version = current.map(StoredRecord::version).orElse(0L);
      StoredRecord next = next(id, current, after, now);
      Optional<OutboxEntry> entry = Optional.empty();
      if (consumed.contains(LABEL + "." + state)) {
        var origin =
            current
                .<tools.jackson.databind.JsonNode>map(Binding::view)
                .orElse(NullNode.getInstance());
        var change =
            Announcements.change(origin, Binding.view(next), NullNode.getInstance(), Map.of());
        long claim =
            publisher
                .map(p -> p.claimedUntil(now))
                .orElse(now); // a process that publishes it at once claims it
        entry =
            Optional.of(
                new OutboxEntry(
                    Identities.ordered(now, random),
                    now,
                    Optional.of(Binding.json(change)),
                    Optional.empty(),
                    claim));
      }
      if (records.commit(new Write(version, next, entry)) == Outcome.COMMITTED) {
        Optional<OutboxEntry> committed = entry;
        publisher.ifPresent(p -> committed.ifPresent(p::committed));
        return;
      }
    }
    throw new IllegalStateException(
        LABEL
            + ": the record "
            + id
            + " kept changing under "
            + TRIES
            + " tries to mark it "
            + state);
  }
}
