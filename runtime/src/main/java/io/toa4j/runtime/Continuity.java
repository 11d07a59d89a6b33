package io.toa4j.runtime;

import io.toa4j.api.Attempt;
import io.toa4j.api.Context;
import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Remote;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Criterion;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The journal of continuous runs ({@code continuity:} in a manifest), kept in the system store
 * {@code system.continuity} on the context's storage: one record per step of a run, named by the
 * run's identity and what the step asked, holding the step's answer as JSON, created by a
 * compare-and-swap from nothing — so the first attempt to record a step's answer is the one every
 * attempt of the run gets back, whichever copy of the run made it.
 *
 * <p>A run is one delivery of a task or an event to a continuous effect: its identity is the call
 * identity it is served under, the same on every delivery. Each attempt runs the effect's code from
 * the top with a {@link Context} that journals: each step that has an answer is given it without
 * running; the first step without one runs live, and its answer is recorded before the run goes on.
 * Steps are matched by what they ask (their kind, their target and request, or their name) and by
 * their occurrence among steps that ask the same in this attempt — not by position, so a run whose
 * code asks in another order on resume still meets its answers. A step that fails records nothing
 * and runs again on the next attempt. Thread-safe.
 */
final class Continuity {
  /** The system store's name: {@code system.continuity}. */
  static final String STORE = "continuity";

  /** The largest answer a step may record, in bytes of its JSON: 64 KiB. */
  static final int MOST_BYTES = 64 * 1024;

  /** The longest description of what a step asked that a record keeps, in characters. */
  private static final int ASKED = 500;

  private static final HexFormat HEX = HexFormat.of();

  private final Supplier<Store> store;
  private final Clock clock;
  private final RandomGenerator random;

  /**
   * @param store {@code system.continuity}, opened on first use, so a context without continuous
   *     effects never creates it
   */
  Continuity(Supplier<Store> store, Clock clock, RandomGenerator random) {
    this.store = store;
    this.clock = clock;
    this.random = random;
  }

  /** How a continuous run makes the calls and sends the tasks of its steps. */
  interface Reach {
    /** Calls an operation, waiting for its answer, under the identity given. */
    Reply call(String component, String operation, Request request, String identity);

    /**
     * Sends a task now, under the identity given: returns once it is durably on the bus.
     *
     * @throws Failure {@code ENDPOINT} when the component has no such operation
     */
    void task(String component, String operation, Request request, String identity);
  }

  /**
   * The context of one attempt of a continuous run.
   *
   * @param plain the context the effect would get were it not continuous: what is not a step (its
   *     identity, configuration, state) comes from it
   * @param run the run's identity: the call identity it is served under
   * @param window how long, in seconds, its journal is kept after a step
   */
  Context attempt(Context plain, String run, long window, Reach reach) {
    return new Attempted(plain, run, window, reach);
  }

  /** The answer recorded for the step of the run, if one was. */
  Optional<JsonNode> recorded(String run, String step) {
    return store.get().read(Identities.derive(run, step)).map(r -> answer(r));
  }

  /**
   * Records the step's answer unless one was recorded first, and answers the one recorded first:
   * two copies of a run at once agree on it.
   *
   * @throws Failure {@code UNRECORDABLE} when the answer is larger than {@value #MOST_BYTES} bytes
   */
  JsonNode record(String run, String step, JsonNode answer, long window) {
    return record(run, step, answer, window, 0);
  }

  /**
   * Records as {@link #record(String, String, JsonNode, long)} does, noting the step's position
   * among the steps its attempt asked, by which {@link #steps} lists them.
   */
  JsonNode record(String run, String step, JsonNode answer, long window, int position) {
    ObjectNode state = JsonNodeFactory.instance.objectNode();
    state.put("run", run);
    state.put("step", cut(step));
    state.put("position", position);
    state.set("answer", answer);
    long now = clock.millis();
    state.put("at", Instant.ofEpochMilli(now).toString());
    state.put("until", now + window * 1000);
    int bytes = answer.toString().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MOST_BYTES)
      throw new Failure(
          Failure.Code.UNRECORDABLE,
          "the answer of the step '"
              + cut(step)
              + "' of the continuous run "
              + run
              + " is "
              + bytes
              + " bytes of JSON, and a journal keeps at most "
              + MOST_BYTES
              + "; return less from the step (an id to look the rest up by)");
    String id = Identities.derive(run, step);
    Store journal = store.get();
    StoredRecord record = new StoredRecord(id, 1, now, now, Binding.json(state));
    if (journal.commit(new Write(0, record, Optional.empty())) == Outcome.COMMITTED) return answer;
    return journal
        .read(id)
        .map(Continuity::answer)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the journal of the continuous run "
                        + run
                        + " refused a step's answer and holds none for it"));
  }

  /**
   * Removes, up to {@code limit} steps, the journals of runs whose window has passed since their
   * last step: a run's steps go together, never some of them while it may still resume.
   *
   * @return how many steps were removed
   */
  int purge(long now, int limit) {
    Store journal = store.get();
    List<StoredRecord> expired =
        journal.find(
            new Selection(
                Optional.of(new Criterion.Compare(UNTIL, Criterion.Operator.LT, List.of(now))),
                List.of(),
                limit,
                0));
    java.util.Set<String> runs = new java.util.LinkedHashSet<>();
    for (StoredRecord step : expired) runs.add(Binding.object(step.state()).path("run").asString());
    int removed = 0;
    for (String run : runs) {
      Criterion mine = new Criterion.Compare(RUN, Criterion.Operator.EQ, List.of(run));
      boolean live =
          !journal
              .find(
                  new Selection(
                      Optional.of(
                          new Criterion.All(
                              List.of(
                                  mine,
                                  new Criterion.Compare(
                                      UNTIL, Criterion.Operator.GE, List.of(now))))),
                      List.of(),
                      1,
                      0))
              .isEmpty();
      if (live) continue;
      for (StoredRecord step : journal.find(new Selection(Optional.of(mine), List.of(), limit, 0)))
        if (journal.remove(step.id(), step.version())) removed++;
    }
    return removed;
  }

  /**
   * The run identity of a delivery on a queue: a task's is its message id, an event's at a receiver
   * the delivery identity the receiver serves it under.
   */
  static String run(String queue, String messageId) {
    return queue.endsWith("..tasks") ? messageId : Identities.derive(messageId, queue);
  }

  /**
   * The steps the journal holds for a run, in the order the run asked them (steps recorded at one
   * position by different attempts, in the order they were recorded): at most {@code limit}.
   */
  List<JournaledStep> steps(String run, int limit) {
    List<JournaledStep> steps = new java.util.ArrayList<>();
    for (StoredRecord record :
        store
            .get()
            .find(
                new Selection(
                    Optional.of(new Criterion.Compare(RUN, Criterion.Operator.EQ, List.of(run))),
                    List.of(
                        new Selection.Order(POSITION, false), new Selection.Order(CREATED, false)),
                    limit,
                    0))) {
      JsonNode state = Binding.object(record.state());
      steps.add(
          new JournaledStep(
              state.path("step").asString(),
              Instant.parse(state.path("at").asString()),
              state.path("answer").toString().getBytes(StandardCharsets.UTF_8).length));
    }
    return steps;
  }

  /** Drops a run's journal, so that its next attempt runs every step live; answers how many. */
  int drop(String run) {
    Store journal = store.get();
    int removed = 0;
    for (StoredRecord step :
        journal.find(
            new Selection(
                Optional.of(new Criterion.Compare(RUN, Criterion.Operator.EQ, List.of(run))),
                List.of(),
                100_000,
                0))) if (journal.remove(step.id(), step.version())) removed++;
    return removed;
  }

  private static final Selection.Field POSITION =
      new Selection.Field("position", Selection.Kind.NUMBER);

  private static final Selection.Field CREATED =
      new Selection.Field("CREATED", Selection.Kind.NUMBER);

  private static final Selection.Field UNTIL = new Selection.Field("until", Selection.Kind.NUMBER);
  private static final Selection.Field RUN = new Selection.Field("run", Selection.Kind.TEXT);

  private static JsonNode answer(StoredRecord record) {
    return Binding.object(record.state()).path("answer");
  }

  private static String cut(String text) {
    return text.length() <= ASKED ? text : text.substring(0, ASKED) + " ...";
  }

  /**
   * A value as canonical JSON: object properties sorted at every level, so that two asks of the
   * same request name one step whatever order their properties were given in.
   */
  static String canonical(JsonNode value) {
    return sorted(value).toString();
  }

  private static JsonNode sorted(JsonNode value) {
    if (value.isObject()) {
      TreeMap<String, JsonNode> fields = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : value.properties()) fields.put(e.getKey(), e.getValue());
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      fields.forEach((k, v) -> out.set(k, sorted(v)));
      return out;
    }
    if (value.isArray()) {
      var out = JsonNodeFactory.instance.arrayNode();
      for (Iterator<JsonNode> i = value.values().iterator(); i.hasNext(); )
        out.add(sorted(i.next()));
      return out;
    }
    return value;
  }

  /** One attempt of a continuous run: every interaction with the context is a journaled step. */
  private final class Attempted implements Context {
    private final Context plain;
    private final String run;
    private final long window;
    private final Reach reach;
    private final Map<String, Integer> occurrences = new HashMap<>();
    private int asked;

    Attempted(Context plain, String run, long window, Reach reach) {
      this.plain = plain;
      this.run = run;
      this.window = window;
      this.reach = reach;
    }

    /** The step's key: what it asks and its occurrence among equal asks in this attempt. */
    private synchronized String key(String asks) {
      int n = occurrences.merge(asks, 1, Integer::sum);
      return asks + " #" + n;
    }

    /** The step's position among the steps this attempt asked, from 1. */
    private synchronized int position() {
      return ++asked;
    }

    /**
     * The recorded answer of the step, else the live one, recorded first. The live work is given an
     * identity derived from the run's and the step's key, the same on every attempt: a step that
     * reaches another operation is made under it, so the callee's inbox recognises a step made
     * again after its answer was lost.
     */
    private JsonNode step(String asked, java.util.function.Function<String, JsonNode> live) {
      String key = key(asked);
      int position = position();
      Optional<JsonNode> recorded = recorded(run, key);
      if (recorded.isPresent()) return recorded.get();
      return record(run, key, live.apply(Identities.derive(run, key)), window, position);
    }

    @Override
    public Remote remote(String component) {
      return new Remote() {
        @Override
        public Reply call(String operation, Request request) {
          String asked =
              "call " + component + "." + operation + " " + canonical(Requests.tree(request));
          JsonNode answer =
              step(asked, identity -> reply(reach.call(component, operation, request, identity)));
          return reply(answer);
        }

        @Override
        public void task(String operation, Request request) {
          String asked =
              "task " + component + "." + operation + " " + canonical(Requests.tree(request));
          step(
              asked,
              identity -> {
                reach.task(component, operation, request, identity);
                return JsonNodeFactory.instance.objectNode().put("sent", true);
              });
        }
      };
    }

    @Override
    public Instant now() {
      return Instant.ofEpochMilli(
          step("now", identity -> JsonNodeFactory.instance.numberNode(clock.millis())).asLong());
    }

    @Override
    public double random() {
      return step(
              "random",
              identity -> JsonNodeFactory.instance.numberNode(Continuity.this.random.nextDouble()))
          .asDouble();
    }

    @Override
    public String id() {
      return step(
              "id",
              identity -> {
                byte[] bytes = new byte[16];
                Continuity.this.random.nextBytes(bytes);
                return JsonNodeFactory.instance.stringNode(HEX.formatHex(bytes));
              })
          .asString();
    }

    @Override
    public <T> T step(String name, Class<T> type, Supplier<T> work) {
      JsonNode answer =
          step(
              "step " + name,
              identity -> {
                T value = work.get();
                try {
                  return Binding.VALUES.valueToTree(value);
                } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
                  throw new Failure(
                      Failure.Code.UNRECORDABLE,
                      "the answer of the step '"
                          + name
                          + "' of the continuous run "
                          + run
                          + " cannot be written as JSON ("
                          + (value == null ? "null" : value.getClass().getName())
                          + "): "
                          + e.getMessage());
                }
              });
      try {
        return Binding.VALUES.treeToValue(answer, type);
      } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
        throw new Failure(
            Failure.Code.UNRECORDABLE,
            "the recorded answer of the step '"
                + name
                + "' of the continuous run "
                + run
                + " cannot be read back as "
                + type.getName()
                + ": "
                + InputErrors.describe(answer, e));
      }
    }

    @Override
    public String identity() {
      return plain.identity();
    }

    @Override
    public Optional<Attempt> previous() {
      return plain.previous();
    }

    @Override
    public <T> T configuration(Class<T> type) {
      return plain.configuration(type);
    }

    @Override
    public ConcurrentMap<String, Object> state() {
      return plain.state();
    }
  }

  /** A reply as its journal answer: {@code {output}} or {@code {refused: {code, cause}}}. */
  private static JsonNode reply(Reply reply) {
    ObjectNode answer = JsonNodeFactory.instance.objectNode();
    if (reply instanceof Reply.Refused refused) {
      ObjectNode refusal = answer.putObject("refused");
      refusal.put("code", refused.refusal().code());
      refused.refusal().cause().ifPresent(c -> refusal.set("cause", Binding.VALUES.valueToTree(c)));
      return answer;
    }
    Optional<Object> value = ((Reply.Output) reply).value();
    if (value.isPresent()) answer.set("output", Binding.VALUES.valueToTree(value.get()));
    return answer;
  }

  /** A journal answer as the reply it recorded. */
  private static Reply reply(JsonNode answer) {
    if (answer.has("refused")) {
      JsonNode refused = answer.get("refused");
      String code = refused.path("code").asString();
      return new Reply.Refused(
          refused.has("cause")
              ? Refusal.of(code, Binding.plain(refused.get("cause")))
              : Refusal.of(code));
    }
    return new Reply.Output(
        answer.has("output")
            ? Optional.ofNullable(Binding.plain(answer.get("output")))
            : Optional.empty());
  }
}
