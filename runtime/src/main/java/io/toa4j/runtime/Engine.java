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
import io.toa4j.manifest.Schema;
import io.toa4j.manifest.Violation;
import io.toa4j.spi.OutboxEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs one operation: reads the record, runs the author's code, commits the change.
 *
 * <p>Invariants, for every call:
 *
 * <ol>
 *   <li>A record changes only through a {@link io.toa4j.spi.Write} whose expected version is the
 *       version the run read; a lost compare-and-swap writes nothing.
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
 *   <li>A refusal answered to the caller carries a code the operation declares under {@code
 *       errors}.
 *   <li>When someone consumes the component's events, every committed write carries its outbox
 *       entry in the same commit: a write without its fact, or a fact without its write, is never
 *       stored. Publishing happens only after the commit answered.
 *   <li>Nothing leaves before the commit. The tasks a transition or an assignment sends are held
 *       during its attempt and committed in the write's outbox entry, with the record, then sent
 *       after the commit answered; an attempt that refuses, throws, discards, loses its
 *       compare-and-swap or loses the inbox race to a twin sends none of them. An operation that
 *       commits nothing sends its tasks after it returned an output and before its caller hears it;
 *       one that refuses or throws sends none.
 *   <li>Each attempt runs with a fresh context, whose calls and tasks are numbered from 1: the
 *       identities the committed attempt gives them are the same whichever attempt committed, and
 *       on every delivery of the call it serves.
 *   <li>For an operation that declares {@code once}, a call's answer is committed with the change
 *       it made, and only then: a refusal, a failure or a discard records nothing. A call whose
 *       identity is answered and not expired is answered from the inbox without running; a twin
 *       that loses the race to commit (the inbox's or the record's compare-and-swap) writes nothing
 *       and gets the winner's answer at once, without a retry. So the record moves once per call
 *       identity. A call whose identity is answered for a request with another fingerprint
 *       (operation, query, input) is refused ({@code IDENTITY_REUSED}) and writes nothing: one
 *       identity never gets the answer to a different request.
 *   <li>Calls of this process that write the same record take turns on it, in the order they asked
 *       ({@link Turns}): each runs on the record as the one before it committed it (handed over,
 *       not read again), so they do not lose the compare-and-swap to each other. The turn orders,
 *       the compare-and-swap decides: writers in other processes, a call that waited past its
 *       turn's bound, and a handed record they made stale, lose or race as before.
 * </ol>
 *
 * <p>Here: the five kinds of operation, and the author's code run with a fresh context per attempt.
 * Each of the rest is a class of its own with its invariants at its top: the one compare-and-swap
 * loop every write takes, and the commit ({@link Writes}: invariants 1, 3, 5, 8), the inbox's
 * answers ({@link InboxAnswers}: 11), a write's turn on its record ({@link Turned}, {@link Turns}:
 * 12), the marks of an external effect ({@link Externals}), the record a query's criteria name
 * ({@link Lookup}), the operations toa4j implements itself ({@link GenericOperations}), and the
 * tasks of an attempt ({@link Outgoing}: 9).
 *
 * <p>Why this class stays over 400 lines: the five kinds share one path (read, bind a fresh entry,
 * run the code with a fresh context, judge what it returned, commit or not), and invariants 2, 4,
 * 6, 7 and 10 are statements about that whole path. Split by kind, each part would repeat how a
 * refusal, a discard, a thrown failure and an output are judged, which is where the kinds must not
 * differ.
 *
 * <p>Thread-safe and stateless between calls: any number of calls run at once.
 */
final class Engine {
  /** The timer of calls, by {@code operation} and {@code outcome}. */
  static final String CALL_TIMER = "toa.call";

  /** The timer of the storage's commits, by {@code component} and {@code outcome}. */
  static final String COMMIT_TIMER = "toa.commit";

  private final Options options;
  private final Outbox outbox;
  private final MeterRegistry metrics;
  private final Meters meters;
  private final Tracing tracing;
  private final Turns turns;
  private final InboxAnswers inbox;
  private final Writes writes;
  private final Externals externals;
  private final GenericOperations generic;

  /** Where what a run sends goes once it may leave. */
  interface Outbox {
    /**
     * Told of every committed outbox entry, after its commit, so it can publish at once; with the
     * entry's change as a tree of its own, exactly what the committed text reads back as ({@link
     * Binding#reread}), so that it need not read the text; empty when there is none.
     */
    void committed(Component component, OutboxEntry entry, Optional<ObjectNode> change);

    /**
     * Until when an entry committed at {@code committed} belongs to this process, which publishes
     * it at once: no other process's sweep takes it before.
     */
    long claimedUntil(long committed);

    /**
     * Sends the tasks of a run that commits nothing, once it answered an output; returns when they
     * are durably on the bus.
     *
     * @throws RuntimeException when they could not all be sent; the caller's answer is a failure
     */
    void send(List<Task> tasks);
  }

  /**
   * Makes the context of one attempt of a call: its calls and tasks numbered from 1, its tasks held
   * in {@code outgoing}.
   */
  @FunctionalInterface
  interface Contexts {
    Context open(Invocation call, Outgoing outgoing);
  }

  /**
   * @param metrics counts what each mechanism absorbed: discards, inbox answers, racing twins
   * @param tracing records a span per call and per commit, and gives each outbox entry the call's
   *     trace context
   * @param inboxRetentionSeconds how long a {@code once} call's answer is given when its operation
   *     states no time
   * @param inboxRememberSeconds how long the record that a {@code once} call was answered is kept
   *     when its operation states no time
   * @param attempts the marks of the attempts of operations declared external
   */
  Engine(
      Options options,
      Outbox outbox,
      MeterRegistry metrics,
      Tracing tracing,
      long inboxRetentionSeconds,
      long inboxRememberSeconds,
      Attempts attempts) {
    this.options = options;
    this.outbox = outbox;
    this.metrics = metrics;
    this.meters = new Meters(metrics);
    this.tracing = tracing;
    this.turns = new Turns(options.turnWait());
    this.inbox = new InboxAnswers(options, meters, inboxRetentionSeconds, inboxRememberSeconds);
    this.writes = new Writes(options, outbox, metrics, meters, tracing, inbox);
    this.externals = new Externals(attempts);
    this.generic = new GenericOperations(options, writes);
  }

  /**
   * Runs the call to completion, timed as {@value #CALL_TIMER} by its operation and its outcome:
   * {@code output}, {@code replayed} (the inbox answered), {@code refused} or {@code failed}; and
   * traced as a span {@code call <operation>}, current while it runs, so that its commit, the calls
   * it makes and its outbox entry belong to it.
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
      outcome =
          result instanceof Result.Output output
              ? (output.replayed() ? "replayed" : "output")
              : "refused";
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

  /**
   * How long the answers to the operation's calls are given; empty when it does not declare once.
   */
  Optional<Long> retentionSeconds(Operation operation) {
    return inbox.retentionSeconds(operation);
  }

  @SuppressWarnings("unchecked")
  private Result run(
      Component component, Operation operation, Invocation given, Contexts contexts) {
    Invocation checked = Requests.withDefaults(operation, given);
    Requests.check(component, operation, checked);
    Optional<Invocation> located = Lookup.located(component, operation, checked);
    if (located.isEmpty()) return new Result.Output(MissingNode.getInstance());
    Invocation call = located.get();
    return switch (operation.type()) {
      case TRANSITION -> {
        try (Turned turned = Turned.take(turns, options, component, operation, call)) {
          boolean retry = operation.declaration().concurrency() == Concurrency.RETRY;
          yield operation.generic()
              ? writes.write(
                  component, operation, call, turned, retry, () -> generic.transit(component, call))
              : writes.write(
                  component,
                  operation,
                  call,
                  turned,
                  retry,
                  () -> transition(component, operation, call, contexts));
        }
      }
      case OBSERVATION ->
          operation.generic()
              ? generic.observation(component, operation, call)
              : observation(component, operation, call, contexts);
      case ASSIGNMENT -> {
        // an assignment does not compare versions: a lost race is the storage's business, so it is
        // applied again on the fresh record rather than reported
        try (Turned turned = Turned.take(turns, options, component, operation, call)) {
          yield writes.write(
              component,
              operation,
              call,
              turned,
              true,
              () -> assignment(component, operation, call, contexts));
        }
      }
      case EFFECT ->
          operation.declaration().external().isPresent()
              ? externals.run(
                  component,
                  operation,
                  call,
                  contexts,
                  told -> effect(component, operation, call, told))
              : effect(component, operation, call, contexts);
      case COMPUTATION ->
          unwritten(
              component,
              operation,
              run(
                  component,
                  operation,
                  call,
                  contexts,
                  c ->
                      ((Computation<Object>) instance(operation))
                          .computation(input(component, operation, call), c)),
              null);
    };
  }

  @SuppressWarnings("unchecked")
  private Result effect(
      Component component, Operation operation, Invocation call, Contexts contexts) {
    return unwritten(
        component,
        operation,
        run(
            component,
            operation,
            call,
            contexts,
            c ->
                ((Effect<Object>) instance(operation))
                    .effect(input(component, operation, call), c)),
        null);
  }

  /**
   * The answer of a run that commits nothing; its tasks leave once it answered an output, before
   * the caller hears it.
   */
  private Result unwritten(Component component, Operation operation, Ran ran, ObjectNode record) {
    Result result = answer(component, operation, ran.returned(), record);
    if (result instanceof Result.Output && !ran.tasks().isEmpty()) outbox.send(ran.tasks());
    return result;
  }

  // ---- transitions ------------------------------------------------------------------------

  /**
   * The attempts of a transition: the input bound once, then, per attempt, the author's code on a
   * fresh entry of the record as read, proposing its state unless it refused or discarded.
   */
  private Writes.Attempt transition(
      Component component, Operation operation, Invocation call, Contexts contexts) {
    Object input = input(component, operation, call);
    return current -> {
      Entry entry = entry(operation, current);
      @SuppressWarnings("unchecked")
      Transition<Object, Entry> code = (Transition<Object, Entry>) instance(operation);
      Ran ran =
          run(
              component,
              operation,
              call,
              contexts,
              context -> code.transition(input, entry, context));
      Object returned = ran.returned();
      Optional<Refusal> refusal = refusal(returned);
      if (refusal.isPresent())
        return new Writes.Answered(refused(component, operation, refusal.get()));
      if (entry.discarded()) {
        meters.count("toa.discards", component, operation);
        return new Writes.Answered(
            answer(component, operation, returned, entry == returned ? current.view() : null));
      }
      Writes.Next next = writes.next(component, current, Binding.state(entry));
      Result result =
          answer(component, operation, returned, entry == returned ? next.view() : null);
      return new Writes.Proposed(next, result, entry.trailers(), ran.tasks());
    };
  }

  // ---- observations -----------------------------------------------------------------------

  private Result observation(
      Component component, Operation operation, Invocation call, Contexts contexts) {
    Writes.Current current =
        writes.current(component, component.store().orElseThrow(), call.query(), false);
    if (current == null) return new Result.Output(MissingNode.getInstance());
    Object input = input(component, operation, call);
    Entry entry = entry(operation, current);
    @SuppressWarnings("unchecked")
    Observation<Object, Entry> code = (Observation<Object, Entry>) instance(operation);
    Ran ran =
        run(
            component,
            operation,
            call,
            contexts,
            context -> code.observation(input, entry, context));
    return unwritten(component, operation, ran, entry == ran.returned() ? current.view() : null);
  }

  // ---- assignments ------------------------------------------------------------------------

  /**
   * The attempts of an assignment: per attempt, the changeset (the input itself for a generic one,
   * else what the author's code put in it, its input bound afresh) patched onto the record as read.
   */
  private Writes.Attempt assignment(
      Component component, Operation operation, Invocation call, Contexts contexts) {
    return current -> {
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
        Ran ran =
            run(
                component,
                operation,
                call,
                contexts,
                context -> code.assignment(input, changeset, context));
        returned = ran.returned();
        tasks = ran.tasks();
        Optional<Refusal> refusal = refusal(returned);
        if (refusal.isPresent())
          return new Writes.Answered(refused(component, operation, refusal.get()));
      }
      ObjectNode state = current.state().deepCopy();
      changeset.forEach((k, v) -> state.set(k, Binding.tree(v)));
      Writes.Next next = writes.next(component, current, state);
      Result result = answer(component, operation, returned, returned == null ? next.view() : null);
      return new Writes.Proposed(next, result, Map.of(), tasks);
    };
  }

  // ---- running the author's code ----------------------------------------------------------

  private static Entry entry(Operation operation, Writes.Current current) {
    Class<? extends Entry> type = operation.code().orElseThrow().entity().orElseThrow();
    return Binding.entity(
        type,
        current.id(),
        current.version(),
        current.created(),
        current.updated(),
        current.state());
  }

  private static Object instance(Operation operation) {
    return operation.code().orElseThrow().instance();
  }

  private static Object input(Component component, Operation operation, Invocation call) {
    Optional<Class<?>> type = operation.code().flatMap(Operation.Code::input);
    if (type.isEmpty()) return null;
    try {
      return Binding.VALUES.treeToValue(call.input(), type.get());
    } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new Failure(
          Failure.Code.CONTRACT,
          "the input of "
              + operation.name()
              + " cannot be read: "
              + InputErrors.describe(call.input(), e));
    } catch (LinkageError e) {
      throw Authored.linkage(
          component.label() + "." + operation.name(),
          e); // its input class is the author's code too
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
  private static Ran run(
      Component component,
      Operation operation,
      Invocation call,
      Contexts contexts,
      WithContext code) {
    Outgoing outgoing = new Outgoing();
    Context context = contexts.open(call, outgoing);
    try {
      return new Ran(
          Authored.run(() -> component.label() + "." + operation.name(), () -> code.run(context)),
          outgoing.take());
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
          component.label()
              + "."
              + operation.name()
              + " refused with "
              + refusal.code()
              + ", which it does not declare under errors"
              + " (declared: "
              + (declared.isEmpty() ? "none" : String.join(", ", declared))
              + "); toa4j requires every"
              + " refusal code an operation returns to be declared, so that callers know the refusals to expect; declare it"
              + " in the manifest: operations: { "
              + operation.name()
              + ": { errors: ["
              + String.join(
                  ", ",
                  java.util.stream.Stream.concat(
                          declared.stream(), java.util.stream.Stream.of(refusal.code()))
                      .toList())
              + "] } }");
    }
    return new Result.Refused(refusal);
  }

  /**
   * The output: the record when the code returned its entry, else the value it returned. A reply of
   * another operation returned as it is answers what that reply holds.
   */
  private Result answer(
      Component component, Operation operation, Object returned, ObjectNode record) {
    if (returned instanceof Reply.Output output) returned = output.value().orElse(null);
    if (returned instanceof Reply.Refused refusedReply) returned = refusedReply.refusal();
    if (returned instanceof Refusal refusal) return refused(component, operation, refusal);
    if (record != null) return new Result.Output(record);
    if (returned == null) return new Result.Output(MissingNode.getInstance());
    if (returned instanceof Entry) {
      throw new Failure(
          Failure.Code.RESPONSE_CONTRACT,
          component.label() + "." + operation.name() + " returned an entry other than its own");
    }
    JsonNode output;
    try {
      output = Binding.tree(returned);
    } catch (IllegalArgumentException e) {
      throw new Failure(
          Failure.Code.RESPONSE_CONTRACT,
          component.label()
              + "."
              + operation.name()
              + " returned a value that is not plain data: "
              + e.getMessage(),
          e);
    }
    if (options.checks()) checkOutput(component, operation, output);
    return new Result.Output(output);
  }

  /**
   * With checks on: the value the code returned against the operation's {@code output} schema,
   * before anything is written. A record returned as the answer is the entity's, checked against
   * the entity schema when it is written.
   */
  static void checkOutput(Component component, Operation operation, JsonNode output) {
    Optional<Schema> schema = operation.declaration().output();
    if (schema.isEmpty()) return;
    List<Violation> violations = schema.get().validate(output);
    if (!violations.isEmpty()) {
      throw new Failure(
          Failure.Code.RESPONSE_CONTRACT,
          "the output of "
              + component.label()
              + "."
              + operation.name()
              + " does not fit its schema: "
              + describe(violations)
              + " (checked because checks are on; nothing was written)");
    }
  }

  static String describe(List<Violation> violations) {
    return violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
  }
}
