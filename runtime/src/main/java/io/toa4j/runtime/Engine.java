package io.toa4j.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.toa4j.api.Assignment;
import io.toa4j.api.Computation;
import io.toa4j.api.Context;
import io.toa4j.api.Effect;
import io.toa4j.api.Entry;
import io.toa4j.api.Failure;
import io.toa4j.api.Observation;
import io.toa4j.api.Query;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Transition;
import io.toa4j.manifest.Concurrency;
import io.toa4j.manifest.OperationType;
import io.toa4j.manifest.Schema;
import io.toa4j.manifest.Violation;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Reading;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one operation: reads the record, runs the author's code, commits the change.
 *
 * <p>Invariants, for every call:
 *
 * <ol>
 *   <li>A record changes only through a {@link Write} whose expected version is the version the
 *       run read; a lost compare-and-swap writes nothing.
 *   <li>Nothing is written when the operation refuses (with its own refusal, or returning another
 *       operation's refused reply as it is), throws, or discards; the caller of a discarded run
 *       still gets what the operation returned, as a success.
 *   <li>Every state written fits the entity's schema; one that does not is never stored.
 *   <li>Each attempt binds a fresh entry from the stored record: nothing an abandoned attempt did
 *       to its entry leaks into the next.
 *   <li>With {@code concurrency: retry} the caller never sees a lost compare-and-swap: the run is
 *       repeated on fresh state within the retry policy, and exhausting it is a contention failure;
 *       with {@code concurrency: none} the caller gets a concurrency failure.
 *   <li>An input reaches the author's code only after it fits the operation's input schema and its
 *       query fits the operation's query rule.
 *   <li>A refusal answered to the caller carries a code the operation declares under {@code errors}.
 *   <li>When someone consumes the component's events, every committed write carries its outbox
 *       entry in the same commit: a write without its fact, or a fact without its write, is never
 *       stored. Publishing happens only after the commit answered.
 *   <li>Nothing leaves before the commit. The tasks a transition or an assignment sends are held
 *       during its attempt and committed in the write's outbox entry, with the record, then sent
 *       after the commit answered; an attempt that refuses, throws, discards, loses its
 *       compare-and-swap or loses the inbox race to a twin sends none of them. An operation that
 *       commits nothing sends its tasks after it returned an output and before its caller hears
 *       it; one that refuses or throws sends none.
 *   <li>Each attempt runs with a fresh context, whose calls and tasks are numbered from 1: the
 *       identities the committed attempt gives them are the same whichever attempt committed, and
 *       on every delivery of the call it serves.
 *   <li>For an operation that declares {@code once}, a call's answer is committed with the change
 *       it made, and only then: a refusal, a failure or a discard records nothing. A call whose
 *       identity is answered and not expired is answered from the inbox without running; a twin
 *       that loses the race to commit (the inbox's or the record's compare-and-swap) writes nothing
 *       and gets the winner's answer at once, without a retry. So the record
 *       moves once per call identity. A call whose identity is answered for a request with another
 *       fingerprint (operation, query, input) is refused ({@code IDENTITY_REUSED}) and writes
 *       nothing: one identity never gets the answer to a different request.
 *   <li>Calls of this process that write the same record take turns on it, in the order they
 *       asked ({@link Turns}): each runs on the record as the one before it committed it (handed
 *       over, not read again), so they do not lose the compare-and-swap to each other. The turn
 *       orders, the compare-and-swap decides: writers in other processes, a call that waited past
 *       its turn's bound, and a handed record they made stale, lose or race as before.
 * </ol>
 *
 * <p>Thread-safe and stateless between calls: any number of calls run at once. Longer than 400
 * lines because the five kinds of operation share one read, run and commit, which stays in one
 * place; what can stand alone does ({@link Outgoing}, {@link Publisher}, {@link Requests}).
 */
final class Engine {
  private static final long DEFAULT_PAGE = 100;
  private static final long MAX_PAGE = 1000;

  /** The timer of calls, by {@code operation} and {@code outcome}. */
  static final String CALL_TIMER = "toa.call";

  /** The timer of the storage's commits, by {@code component} and {@code outcome}. */
  static final String COMMIT_TIMER = "toa.commit";

  /** Each commit outcome as the commit timer and span name it: lower case. */
  private static final Map<Outcome, String> OUTCOMES = new java.util.EnumMap<>(Outcome.class);

  static {
    for (Outcome o : Outcome.values()) OUTCOMES.put(o, o.name().toLowerCase(java.util.Locale.ROOT));
  }

  private final Options options;
  private final Outbox outbox;
  private final MeterRegistry metrics;
  private final Meters meters;
  private final Tracing tracing;
  private final long inboxRetentionSeconds;
  private final long inboxRememberSeconds;
  private final Attempts attempts;
  private final Turns turns;

  /** Where what a run sends goes once it may leave. */
  interface Outbox {
    /**
     * Told of every committed outbox entry, after its commit, so it can publish at once; with the
     * entry's change as a tree of its own, exactly what the committed text reads back as ({@link
     * Binding#reread}), so that it need not read the text; empty when there is none.
     */
    void committed(Component component, OutboxEntry entry, Optional<ObjectNode> change);

    /**
     * Sends the tasks of a run that commits nothing, once it answered an output; returns when they
     * are durably on the bus.
     *
     * @throws RuntimeException when they could not all be sent; the caller's answer is a failure
     */
    void send(List<Task> tasks);
  }

  /** Makes the context of one attempt of a call: its calls and tasks numbered from 1, its tasks held in {@code outgoing}. */
  @FunctionalInterface
  interface Contexts {
    Context open(Invocation call, Outgoing outgoing);
  }

  /**
   * @param metrics counts what each mechanism absorbed: discards, inbox answers, racing twins
   * @param tracing records a span per call and per commit, and gives each outbox entry the
   *     call's trace context
   * @param inboxRetentionSeconds how long a {@code once} call's answer is given when its operation
   *     states no time
   * @param inboxRememberSeconds how long the record that a {@code once} call was answered is kept
   *     when its operation states no time
   * @param attempts the marks of the attempts of operations declared external
   */
  Engine(
      Options options, Outbox outbox, MeterRegistry metrics, Tracing tracing, long inboxRetentionSeconds, long inboxRememberSeconds,
      Attempts attempts) {
    this.attempts = attempts;
    this.turns = new Turns(options.turnWait());
    this.options = options;
    this.outbox = outbox;
    this.metrics = metrics;
    this.meters = new Meters(metrics);
    this.tracing = tracing;
    this.inboxRetentionSeconds = inboxRetentionSeconds;
    this.inboxRememberSeconds = inboxRememberSeconds;
  }

  /**
   * Runs the call to completion, timed as {@value #CALL_TIMER} by its operation and its outcome:
   * {@code output}, {@code replayed} (the inbox answered), {@code refused} or {@code failed}; and
   * traced as a span {@code call <operation>}, current while it runs, so that its commit, the
   * calls it makes and its outbox entry belong to it.
   *
   * @param contexts give each attempt of the author's code its calls and tasks to other components
   * @throws Failure when the call fails; nothing was committed, and no task sent
   */
  Result invoke(Component component, Operation operation, Invocation call, Contexts contexts) {
    String endpoint = component.label() + "." + operation.name();
    Timer.Sample sample = Timer.start(metrics);
    Span span = tracing.start("call " + endpoint, SpanKind.INTERNAL);
    span.setAttribute(Tracing.OPERATION, endpoint);
    span.setAttribute(Tracing.CALL_IDENTITY, call.identity());
    call.query().flatMap(Query::id).ifPresent(id -> span.setAttribute(Tracing.RECORD_ID, id));
    String outcome = "failed";
    try (Scope scope = span.makeCurrent()) {
      Result result = run(component, operation, call, contexts);
      outcome = result instanceof Result.Output output ? (output.replayed() ? "replayed" : "output") : "refused";
      span.setAttribute(Tracing.INBOX_ANSWERED, "replayed".equals(outcome));
      return result;
    } catch (RuntimeException | Error e) {
      Tracing.failed(span, e);
      throw e;
    } finally {
      span.setAttribute(Tracing.OUTCOME, outcome);
      span.end();
      sample.stop(meters.timer(CALL_TIMER, "operation", endpoint, "outcome", outcome));
    }
  }

  @SuppressWarnings("unchecked")
  private Result run(Component component, Operation operation, Invocation given, Contexts contexts) {
    Invocation checked = Requests.withDefaults(operation, given);
    Requests.check(component, operation, checked);
    Optional<Invocation> located = located(component, operation, checked);
    if (located.isEmpty()) return new Result.Output(MissingNode.getInstance());
    Invocation call = located.get();
    return switch (operation.type()) {
      case TRANSITION -> {
        try (Turned turned = turn(component, operation, call)) {
          yield operation.generic() ? genericTransit(component, operation, call, turned) : transition(component, operation, call, contexts, turned);
        }
      }
      case OBSERVATION -> operation.generic() ? genericObservation(component, operation, call) : observation(component, operation, call, contexts);
      case ASSIGNMENT -> {
        try (Turned turned = turn(component, operation, call)) {
          yield assignment(component, operation, call, contexts, turned);
        }
      }
      case EFFECT -> operation.declaration().external().isPresent()
          ? external(component, operation, call, contexts)
          : unwritten(component, operation, run(component, operation, call, contexts, c -> ((Effect<Object>) instance(operation)).effect(input(component, operation, call), c)), null);
      case COMPUTATION -> unwritten(component, operation, run(component, operation, call, contexts, c -> ((Computation<Object>) instance(operation)).computation(input(component, operation, call), c)), null);
    };
  }

  /**
   * The turn of a write on the record it names, with its call's answer (for {@code once}) as looked
   * up while it waited: a call that waited reads nothing more once its turn comes, since the call
   * before it handed it the record. No turn for a write that creates its record.
   */
  private Turned turn(Component component, Operation operation, Invocation call) {
    Turned turned = new Turned();
    Optional<String> id = call.query().flatMap(Query::id);
    if (id.isEmpty()) return turned;
    Store store = component.store().orElseThrow();
    boolean once = operation.declaration().once().isPresent();
    turned.turn = turns.take(component.label() + " " + id.get(), () ->
        turned.answer = once ? store.recorded(call.identity(), options.clock().millis()) : Optional.empty());
    return turned;
  }

  /** A write's turn on its record, and its call's answer as looked up while it waited (null until then). */
  private static final class Turned implements AutoCloseable {
    Turns.Turn turn = Turns.NONE;
    Optional<InboxEntry> answer;

    @Override
    public void close() {
      turn.close();
    }
  }

  /**
   * An effect declared external: its attempt is marked started, in a commit of its own, before it
   * runs, and the mark removed once it ended (answered, refused or threw), so that an attempt whose
   * process died in between leaves its mark. The next attempt's context tells the operation of the
   * attempts whose outcome is unknown ({@link Context#previous()}); past the operation's allowance
   * the call fails {@code OUTCOME_UNKNOWN} without running, a permanent failure that parks its
   * message.
   */
  @SuppressWarnings("unchecked")
  private Result external(Component component, Operation operation, Invocation call, Contexts contexts) {
    String endpoint = component.label() + "." + operation.name();
    Attempts.Started started = attempts.start(endpoint, call.identity(), operation.declaration().external().getAsInt());
    Contexts told = started.previous().isEmpty() ? contexts : (c, outgoing) -> new Reconciling(contexts.open(c, outgoing), started.previous().get());
    try {
      return unwritten(component, operation, run(component, operation, call, told, c -> ((Effect<Object>) instance(operation)).effect(input(component, operation, call), c)), null);
    } finally {
      attempts.ended(started);
    }
  }

  /** A context that tells its operation of the attempts before it whose outcome is unknown. */
  private record Reconciling(Context context, io.toa4j.api.Attempt attempt) implements Context {
    @Override
    public io.toa4j.api.Remote remote(String component) {
      return context.remote(component);
    }

    @Override
    public String identity() {
      return context.identity();
    }

    @Override
    public Optional<io.toa4j.api.Attempt> previous() {
      return Optional.of(attempt);
    }
  }

  /**
   * The call acting on the record its query's criteria find first (in the query's sort; a sort
   * alone: the first of all records), for an operation on one record; the call as it is when its
   * query names the record by id, or it enumerates. Empty for an observation whose criteria find nothing, which answers nothing; an
   * operation that writes fails {@code NOT_FOUND}.
   */
  private Optional<Invocation> located(Component component, Operation operation, Invocation call) {
    Optional<Query> query = call.query();
    boolean enumerating = operation.generic() && operation.implementation().equals("enumerate");
    if (query.isEmpty() || (query.get().criteria().isEmpty() && query.get().sort().isEmpty()) || enumerating) return Optional.of(call);
    Store store = component.store().orElseThrow();
    var found = store.find(Selections.of(component.label(), component.entity().orElseThrow(), query.get(), 1, 0));
    if (!found.isEmpty()) return Optional.of(call.found(found.get(0).id()));
    if (operation.type() == OperationType.OBSERVATION) return Optional.empty();
    throw new Failure(Failure.Code.NOT_FOUND, "no record of " + component.label()
        + query.get().criteria().map(c -> " meets the criteria " + c).orElse(" exists"));
  }

  /** The answer of a run that commits nothing; its tasks leave once it answered an output, before the caller hears it. */
  private Result unwritten(Component component, Operation operation, Ran ran, ObjectNode record) {
    Result result = answer(component, operation, ran.returned(), record);
    if (result instanceof Result.Output && !ran.tasks().isEmpty()) outbox.send(ran.tasks());
    return result;
  }

  // ---- transitions ------------------------------------------------------------------------

  private Result transition(Component component, Operation operation, Invocation call, Contexts contexts, Turned turned) {
    Store store = component.store().orElseThrow();
    Reading first = first(operation, store, call, turned);
    Optional<Result> recorded = recorded(component, operation, call, first.answer());
    if (recorded.isPresent()) return recorded.get();
    Object input = input(component, operation, call);
    boolean retry = operation.declaration().concurrency() == Concurrency.RETRY;
    for (int attempt = 1; ; attempt++) {
      Current current = current(component, call.query(), attempt == 1 ? first.record() : stored(store, call.query()), true);
      Entry entry = entry(operation, current);
      @SuppressWarnings("unchecked")
      Transition<Object, Entry> code = (Transition<Object, Entry>) instance(operation);
      Ran ran = run(component, operation, call, contexts, context -> code.transition(input, entry, context));
      Object returned = ran.returned();
      Optional<Refusal> refusal = refusal(returned);
      if (refusal.isPresent()) return refused(component, operation, refusal.get());
      if (entry.discarded()) {
        count("toa.discards", component, operation);
        return answer(component, operation, returned, entry == returned ? current.view() : null);
      }
      Next next = next(component, current, Binding.state(entry));
      Result result = answer(component, operation, returned, entry == returned ? next.view() : null);
      Optional<Result> answered = commit(component, operation, store, current, next, call, entry.trailers(), ran.tasks(), result, turned.turn);
      if (answered.isPresent()) return answered.get();
      lost(component, operation, current, attempt, retry);
    }
  }

  /**
   * {@code transit}, and what forwards to it: the input merged into the record, property by
   * property, committed as a transition — compare-and-swap on the version read, a new record when
   * no query names one — answering the record.
   */
  private Result genericTransit(Component component, Operation operation, Invocation call, Turned turned) {
    Store store = component.store().orElseThrow();
    Reading first = first(operation, store, call, turned);
    Optional<Result> recorded = recorded(component, operation, call, first.answer());
    if (recorded.isPresent()) return recorded.get();
    boolean retry = operation.declaration().concurrency() == Concurrency.RETRY;
    for (int attempt = 1; ; attempt++) {
      Current current = current(component, call.query(), attempt == 1 ? first.record() : stored(store, call.query()), true);
      ObjectNode state = current.state.deepCopy();
      if (call.input().isObject()) call.input().properties().forEach(e -> state.set(e.getKey(), e.getValue().deepCopy()));
      Next next = next(component, current, state);
      Result result = new Result.Output(next.view());
      Optional<Result> answered = commit(component, operation, store, current, next, call, Map.of(), List.of(), result, turned.turn);
      if (answered.isPresent()) return answered.get();
      lost(component, operation, current, attempt, retry);
    }
  }

  /** After a lost compare-and-swap: waits before the next attempt, or fails the call. */
  private void lost(Component component, Operation operation, Current current, int attempt, boolean retry) {
    String where = component.label() + "." + operation.name() + " on record " + current.id;
    if (!retry) {
      throw new Failure(
          Failure.Code.CONCURRENCY,
          where + " lost its write to a concurrent one at version " + current.version
              + "; try again, or declare concurrency: retry");
    }
    if (attempt >= options.retry().attempts()) {
      throw new Failure(
          Failure.Code.CONTENTION,
          where + " lost its write to concurrent ones " + attempt + " times in a row, so nothing was written; repeat the call later");
    }
    try {
      options.sleeper().sleep(options.retry().delayMillis(attempt, options.random().nextDouble()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(Failure.Code.SYSTEM, where + " was interrupted while waiting to retry", e);
    }
  }

  // ---- observations -----------------------------------------------------------------------

  private Result observation(Component component, Operation operation, Invocation call, Contexts contexts) {
    Current current = current(component, component.store().orElseThrow(), call.query(), false);
    if (current == null) return new Result.Output(MissingNode.getInstance());
    Object input = input(component, operation, call);
    Entry entry = entry(operation, current);
    @SuppressWarnings("unchecked")
    Observation<Object, Entry> code = (Observation<Object, Entry>) instance(operation);
    Ran ran = run(component, operation, call, contexts, context -> code.observation(input, entry, context));
    return unwritten(component, operation, ran, entry == ran.returned() ? current.view() : null);
  }

  private Result genericObservation(Component component, Operation operation, Invocation call) {
    Store store = component.store().orElseThrow();
    if (operation.implementation().equals("observe")) {
      Current current = current(component, store, call.query(), false);
      if (current == null) return new Result.Output(MissingNode.getInstance());
      if (options.checks()) checkOutput(component, operation, current.view());
      return new Result.Output(current.view());
    }
    Query query = call.query().orElse(Query.page(DEFAULT_PAGE, 0));
    long limit = query.limit().orElse(DEFAULT_PAGE);
    if (limit < 1 || limit > MAX_PAGE) {
      throw new Failure(Failure.Code.CONTRACT, "query.limit must be from 1 to " + MAX_PAGE + "; got " + limit);
    }
    var page = Binding.VALUES.createArrayNode();
    store.find(Selections.of(component.label(), component.entity().orElseThrow(), query, limit, query.omit().orElse(0)))
        .forEach(r -> page.add(Binding.view(r)));
    if (options.checks()) checkOutput(component, operation, page);
    return new Result.Output(page);
  }

  // ---- assignments ------------------------------------------------------------------------

  private Result assignment(Component component, Operation operation, Invocation call, Contexts contexts, Turned turned) {
    Store store = component.store().orElseThrow();
    Reading first = first(operation, store, call, turned);
    Optional<Result> recorded = recorded(component, operation, call, first.answer());
    if (recorded.isPresent()) return recorded.get();
    for (int attempt = 1; ; attempt++) {
      Current current = current(component, call.query(), attempt == 1 ? first.record() : stored(store, call.query()), true);
      Map<String, Object> changeset = new LinkedHashMap<>();
      Object returned;
      List<Task> tasks = List.of();
      if (operation.generic()) {
        call.input().forEachEntry((name, value) -> changeset.put(name, Binding.plain(value)));
        returned = null;
      } else {
        Object input = input(component, operation, call);
        @SuppressWarnings("unchecked")
        Assignment<Object> code = (Assignment<Object>) instance(operation);
        Ran ran = run(component, operation, call, contexts, context -> code.assignment(input, changeset, context));
        returned = ran.returned();
        tasks = ran.tasks();
        Optional<Refusal> refusal = refusal(returned);
        if (refusal.isPresent()) return refused(component, operation, refusal.get());
      }
      ObjectNode state = current.state.deepCopy();
      changeset.forEach((k, v) -> state.set(k, Binding.tree(v)));
      Next next = next(component, current, state);
      // An assignment does not compare versions: a lost race is the storage's business, so it is
      // applied again on the fresh record rather than reported.
      Result result = answer(component, operation, returned, returned == null ? next.view() : null);
      Optional<Result> answered = commit(component, operation, store, current, next, call, Map.of(), tasks, result, turned.turn);
      if (answered.isPresent()) return answered.get();
      lost(component, operation, current, attempt, true);
    }
  }

  // ---- reading and writing ----------------------------------------------------------------

  /** A record as read: stored, or blank (version 0) for a new or never-written associated one. */
  private record Current(String id, long version, long created, long updated, ObjectNode state) {
    ObjectNode view() {
      return Binding.view(id, version, created, updated, state);
    }
  }

  /**
   * The record the query names; a blank one when there is no query (a new record) or the component
   * is associated; {@code null} for an observation that finds nothing.
   */
  private Current current(Component component, Store store, Optional<Query> query, boolean writing) {
    return current(component, query, stored(store, query), writing);
  }

  /** The record the query names, as {@code stored} holds it: read from the store for this query. */
  private Current current(Component component, Optional<Query> query, Optional<StoredRecord> stored, boolean writing) {
    if (query.isEmpty() || query.get().id().isEmpty()) {
      if (!writing) throw new Failure(Failure.Code.CONTRACT, "query.id is required to read a record of " + component.label());
      return new Current(Identities.fresh(options.random()), 0, 0, 0, component.blank());
    }
    String id = query.get().id().get();
    long version = stored.map(StoredRecord::version).orElse(0L);
    query.get().version().ifPresent(
        expected -> {
          if (expected != version) {
            throw new Failure(
                Failure.Code.PRECONDITION,
                "record " + id + " of " + component.label() + " is at version " + version + ", not " + expected);
          }
        });
    if (stored.isPresent()) {
      StoredRecord r = stored.get();
      return new Current(r.id(), r.version(), r.created(), r.updated(), Binding.object(r.state()));
    }
    if (component.entity().orElseThrow().associated()) return new Current(id, 0, 0, 0, component.blank());
    if (!writing) return null;
    throw new Failure(Failure.Code.NOT_FOUND, "record " + id + " of " + component.label() + " does not exist");
  }

  /**
   * Commits the record with its outbox entry (the fact of its change when someone consumes the
   * component's events, the tasks the run sent) and the call's answer (when the operation declares
   * {@code once}); tells the publisher after the commit; hands the record as committed to the next
   * call in the record's line ({@code turn}), and nothing when it may not have been committed.
   *
   * @return what to answer: the result when committed, the recorded answer when a twin of the call
   *     committed first; empty when the compare-and-swap was lost and nothing was written. Only a
   *     committed write's entry ever leaves.
   */
  private Optional<Result> commit(
      Component component,
      Operation operation,
      Store store,
      Current current,
      Next next,
      Invocation call,
      Map<String, Object> trailers,
      List<Task> tasks,
      Result result,
      Turns.Turn turn) {
    Optional<ObjectNode> changed = Optional.empty();
    if (component.announces()) {
      JsonNode origin = current.version == 0 ? NullNode.getInstance() : current.view();
      changed = Optional.of(Announcements.change(origin, next.view(), call.input(), trailers));
    }
    Optional<Json> change = changed.map(Binding::json);
    Optional<OutboxEntry> leaving = Optional.empty();
    if (change.isPresent() || !tasks.isEmpty()) {
      leaving =
          Optional.of(
              new OutboxEntry(
                  Identities.ordered(next.updated(), options.random()),
                  next.updated(),
                  change,
                  Task.encode(tasks),
                  next.updated() + Publisher.CLAIM_MILLIS, // this process publishes it at once
                  Tracing.entry(io.opentelemetry.context.Context.current())));
    }
    Optional<InboxEntry> inbox =
        retentionSeconds(operation)
            .map(seconds -> new InboxEntry(
                call.identity(),
                Optional.of(stored(result)),
                next.updated() + seconds * 1000,
                Optional.of(Fingerprints.of(operation.name(), call)),
                next.updated(),
                next.updated() + Math.max(seconds, rememberSeconds(operation)) * 1000,
                Optional.of(next.record().id())));
    turn.hand(null); // until it is known to be committed
    switch (timedCommit(component, store, new Write(current.version, next.record(), leaving, inbox))) {
      case COMMITTED:
        turn.hand(next.record());
        // a copy, since the tree shares nodes with the answer and the input, which the caller may
        // change; none when the copy could differ from what the committed text reads back as
        Optional<ObjectNode> built = changed.map(Binding::reread).map(ObjectNode.class::cast);
        leaving.ifPresent(e -> outbox.committed(component, e, built));
        return Optional.of(result);
      case DUPLICATE:
        count("toa.inbox.twins", component, operation);
        return Optional.of(
            store.recorded(call.identity(), options.clock().millis())
                .map(entry -> replayed(component, operation, call, entry))
                .orElseThrow(
                    () -> new Failure(
                        Failure.Code.SYSTEM,
                        component.label() + "." + operation.name() + ": call " + call.identity()
                            + " was answered by a twin whose answer expired at once; its retention is too short")));
      default:
        // The compare-and-swap was lost. To a twin of this very call, when its answer is there: that
        // answer is this call's, at once, rather than after a backoff and a run that changes nothing.
        if (inbox.isEmpty()) return Optional.empty();
        Optional<InboxEntry> twin = store.recorded(call.identity(), options.clock().millis());
        twin.ifPresent(entry -> count("toa.inbox.twins", component, operation));
        return twin.map(entry -> replayed(component, operation, call, entry));
    }
  }

  /**
   * The store's commit, timed as {@value #COMMIT_TIMER} by component and outcome: {@code committed},
   * {@code conflict}, {@code duplicate}, or {@code failed} when the storage threw; and traced as a
   * span {@code commit <component>} with the same outcome.
   */
  private Outcome timedCommit(Component component, Store store, Write write) {
    String id = write.record().id();
    Span.current().setAttribute(Tracing.RECORD_ID, id); // the call's, which learns the id of a record it creates here
    Timer.Sample sample = Timer.start(metrics);
    Span span = tracing.start("commit " + component.label(), SpanKind.INTERNAL);
    span.setAttribute(Tracing.COMPONENT, component.label());
    span.setAttribute(Tracing.RECORD_ID, id);
    String outcome = "failed";
    try {
      Outcome answered = store.commit(write);
      outcome = OUTCOMES.get(answered);
      return answered;
    } catch (RuntimeException e) {
      Tracing.failed(span, e);
      throw e;
    } finally {
      span.setAttribute(Tracing.OUTCOME, outcome);
      span.end();
      sample.stop(meters.timer(COMMIT_TIMER, "component", component.label(), "outcome", outcome));
    }
  }

  /** How long the answers to the operation's calls are given; empty when it does not declare once. */
  Optional<Long> retentionSeconds(Operation operation) {
    return operation.declaration().once().map(once -> once.seconds().orElse(inboxRetentionSeconds));
  }

  /** How long the record that a call of the operation was answered is kept, as it or the context states. */
  private long rememberSeconds(Operation operation) {
    return operation.declaration().once().orElseThrow().rememberSeconds().orElse(inboxRememberSeconds);
  }

  /** The record the query names, if it names one and the record was ever written. */
  private static Optional<StoredRecord> stored(Store store, Optional<Query> query) {
    return query.flatMap(Query::id).flatMap(store::read);
  }

  /**
   * What a write needs before its first attempt: the record the call names and, for an operation
   * that declares once, the call's recorded answer — read together, one request to the store.
   */
  private Reading first(Operation operation, Store store, Invocation call, Turned turned) {
    Optional<StoredRecord> handed = turned.turn.handed();
    if (handed.isPresent() && turned.answer != null) return new Reading(turned.answer, handed); // read while it waited
    Optional<String> id = call.query().flatMap(Query::id);
    if (operation.declaration().once().isEmpty()) return new Reading(Optional.empty(), id.flatMap(store::read));
    long now = options.clock().millis();
    if (id.isEmpty()) return new Reading(store.recorded(call.identity(), now), Optional.empty());
    return store.read(id.get(), call.identity(), now);
  }

  /** The recorded answer to this very call, as its inbox entry holds it. */
  private Optional<Result> recorded(Component component, Operation operation, Invocation call, Optional<InboxEntry> entry) {
    if (entry.isEmpty()) return Optional.empty();
    Result replayed = replayed(component, operation, call, entry.get());
    count("toa.inbox.answers", component, operation);
    return Optional.of(replayed);
  }

  /** An output as the inbox keeps it: {@code null} for nothing. */
  private static Json stored(Result result) {
    JsonNode value = ((Result.Output) result).value();
    return value.isMissingNode() ? Json.NULL : Binding.json(value);
  }

  /**
   * The recorded answer, as the answer to this call; refused when the call asks for something other
   * than what the recorded one asked for. An entry recorded without a fingerprint answers any call.
   */
  private static Result replayed(Component component, Operation operation, Invocation call, InboxEntry entry) {
    if (entry.fingerprint().isPresent() && !entry.fingerprint().get().equals(Fingerprints.of(operation.name(), call))) {
      throw new Failure(
          Failure.Code.IDENTITY_REUSED,
          "call " + call.identity() + " of " + component.label() + "." + operation.name()
              + " was answered before for a different request; a repeated call must repeat its request exactly,"
              + " and a new request needs a new identity");
    }
    if (entry.reply().isEmpty()) throw alreadyAnswered(component, operation, call, entry);
    JsonNode reply = Binding.tree(entry.reply().get());
    return new Result.Output(reply.isNull() ? MissingNode.getInstance() : reply, true);
  }

  /**
   * The failure of a call that came again after its answer expired and before it is forgotten: it
   * is not run again, and says when it was answered and which record holds what it did.
   */
  private static Failure alreadyAnswered(Component component, Operation operation, Invocation call, InboxEntry entry) {
    Map<String, String> details = new LinkedHashMap<>();
    if (entry.answered() > 0) details.put("answered", java.time.Instant.ofEpochMilli(entry.answered()).toString());
    details.put("component", component.label());
    entry.record().ifPresent(id -> details.put("record", id));
    details.put("identity", call.identity());
    return new Failure(
        Failure.Code.ALREADY_ANSWERED,
        "call " + call.identity() + " of " + component.label() + "." + operation.name() + " was answered"
            + (entry.answered() > 0 ? " at " + details.get("answered") : "") + " and its answer is no longer kept, so it is"
            + " not run again"
            + entry.record().map(id -> "; what it did is in record " + id + " of " + component.label() + ", read it there").orElse(""),
        details);
  }

  private void count(String name, Component component, Operation operation) {
    meters.counter(name, "operation", component.label() + "." + operation.name()).increment();
  }

  /** A record as a write leaves it: as the store keeps it, and as the run sees it. */
  private record Next(StoredRecord record, ObjectNode state) {
    long updated() {
      return record.updated();
    }

    ObjectNode view() {
      return Binding.view(record.id(), record.version(), record.created(), record.updated(), state);
    }
  }

  private Next next(Component component, Current current, ObjectNode state) {
    Schema schema = component.entity().orElseThrow().schema();
    List<Violation> violations = schema.validate(state);
    if (!violations.isEmpty()) {
      throw new Failure(
          Failure.Code.ENTITY_CONTRACT,
          "the new state of record " + current.id + " of " + component.label() + " does not fit the entity, so it was not stored: "
              + describe(violations));
    }
    long now = options.clock().millis();
    return new Next(
        new StoredRecord(current.id, current.version + 1, current.version == 0 ? now : current.created, now, Binding.json(state)), state);
  }

  private static Entry entry(Operation operation, Current current) {
    Class<? extends Entry> type = operation.code().orElseThrow().entity().orElseThrow();
    return Binding.entity(type, current.id, current.version, current.created, current.updated, current.state);
  }

  // ---- running the author's code ----------------------------------------------------------

  private static Object instance(Operation operation) {
    return operation.code().orElseThrow().instance();
  }

  private static Object input(Component component, Operation operation, Invocation call) {
    Optional<Class<?>> type = operation.code().flatMap(Operation.Code::input);
    if (type.isEmpty()) return null;
    try {
      return Binding.VALUES.treeToValue(call.input(), type.get());
    } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new Failure(Failure.Code.CONTRACT, "the input of " + operation.name() + " cannot be read: " + InputErrors.describe(call.input(), e));
    } catch (LinkageError e) {
      throw Authored.linkage(component.label() + "." + operation.name(), e); // its input class is the author's code too
    }
  }

  /** The author's code, given the context of its attempt. */
  private interface WithContext {
    Object run(Context context) throws Exception;
  }

  /** What one attempt of the author's code returned, and the tasks it sent. */
  private record Ran(Object returned, List<Task> tasks) {}

  /**
   * Runs one attempt with a fresh context: its calls and tasks numbered from 1, its tasks held
   * until the engine decides they may leave. The context is over when the code returns or throws.
   */
  private static Ran run(Component component, Operation operation, Invocation call, Contexts contexts, WithContext code) {
    Outgoing outgoing = new Outgoing();
    Context context = contexts.open(call, outgoing);
    try {
      return new Ran(Authored.run(() -> component.label() + "." + operation.name(), () -> code.run(context)), outgoing.take());
    } finally {
      outgoing.take(); // a context kept past its run may send nothing more
    }
  }


  /**
   * The refusal a run returned: its own, or another operation's reply that refused, returned as it
   * is. Either way nothing is written and nothing leaves.
   */
  private static Optional<Refusal> refusal(Object returned) {
    if (returned instanceof Refusal refusal) return Optional.of(refusal);
    if (returned instanceof Reply.Refused refused) return Optional.of(refused.refusal());
    return Optional.empty();
  }

  private static Result refused(Component component, Operation operation, Refusal refusal) {
    if (!operation.declaration().errors().contains(refusal.code())) {
      List<String> declared = operation.declaration().errors().stream().sorted().toList();
      throw new Failure(
          Failure.Code.RESPONSE_CONTRACT,
          component.label() + "." + operation.name() + " refused with " + refusal.code() + ", which it does not declare under errors"
              + " (declared: " + (declared.isEmpty() ? "none" : String.join(", ", declared)) + "); toa4j requires every"
              + " refusal code an operation returns to be declared, so that callers know the refusals to expect; declare it"
              + " in the manifest: operations: { " + operation.name() + ": { errors: ["
              + String.join(", ", java.util.stream.Stream.concat(declared.stream(), java.util.stream.Stream.of(refusal.code())).toList())
              + "] } }");
    }
    return new Result.Refused(refusal);
  }

  /**
   * The output: the record when the code returned its entry, else the value it returned. A reply
   * of another operation returned as it is answers what that reply holds.
   */
  private Result answer(Component component, Operation operation, Object returned, ObjectNode record) {
    if (returned instanceof Reply.Output output) returned = output.value().orElse(null);
    if (returned instanceof Reply.Refused refusedReply) returned = refusedReply.refusal();
    if (returned instanceof Refusal refusal) return refused(component, operation, refusal);
    if (record != null) return new Result.Output(record);
    if (returned == null) return new Result.Output(MissingNode.getInstance());
    if (returned instanceof Entry) {
      throw new Failure(Failure.Code.RESPONSE_CONTRACT, component.label() + "." + operation.name() + " returned an entry other than its own");
    }
    JsonNode output;
    try {
      output = Binding.tree(returned);
    } catch (IllegalArgumentException e) {
      throw new Failure(Failure.Code.RESPONSE_CONTRACT, component.label() + "." + operation.name() + " returned a value that is not plain data: " + e.getMessage(), e);
    }
    if (options.checks()) checkOutput(component, operation, output);
    return new Result.Output(output);
  }

  /**
   * With checks on: the value the code returned against the operation's {@code output} schema,
   * before anything is written. A record returned as the answer is the entity's, checked against
   * the entity schema when it is written.
   */
  private static void checkOutput(Component component, Operation operation, JsonNode output) {
    Optional<Schema> schema = operation.declaration().output();
    if (schema.isEmpty()) return;
    List<Violation> violations = schema.get().validate(output);
    if (!violations.isEmpty()) {
      throw new Failure(
          Failure.Code.RESPONSE_CONTRACT,
          "the output of " + component.label() + "." + operation.name() + " does not fit its schema: " + describe(violations)
              + " (checked because checks are on; nothing was written)");
    }
  }

  static String describe(List<Violation> violations) {
    return violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
  }
}
