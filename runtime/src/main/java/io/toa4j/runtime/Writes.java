package io.toa4j.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.manifest.Schema;
import io.toa4j.manifest.Violation;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Reading;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one compare-and-swap loop every write of a record goes through — a transition, {@code
 * transit}, an assignment: read the record, let the attempt propose the next state and the answer,
 * commit it with the version read as the expected one, and on a lost swap try again on fresh state
 * or fail.
 *
 * <p>Invariants:
 *
 * <ol>
 *   <li>A record changes only through a {@link Write} whose expected version is the version the
 *       attempt read; a lost compare-and-swap writes nothing.
 *   <li>An attempt that answers without proposing (a refusal, a discard) writes nothing.
 *   <li>Every state proposed fits the entity's schema ({@link #next}); one that does not is never
 *       stored.
 *   <li>Each attempt is given the record as stored (or as the call before it in line committed it),
 *       never what an abandoned attempt made of it.
 *   <li>A write that retries never shows its caller a lost compare-and-swap: it runs again on fresh
 *       state within the retry policy, and exhausting it fails {@code CONTENTION}; one that does
 *       not retry fails {@code CONCURRENCY}.
 *   <li>When someone consumes the component's events, every committed write carries its outbox
 *       entry (its fact, its tasks) in the same commit, and the outbox hears of it only after the
 *       commit answered; a write that may not have committed hands nothing to the next call in
 *       line.
 *   <li>For an operation that declares {@code once}, the call's answer is committed with its change
 *       ({@link InboxAnswers}); a twin that loses the race to commit gets the winner's answer at
 *       once, without a retry.
 * </ol>
 *
 * <p>Thread-safe and stateless between calls.
 */
final class Writes {
  /** Each commit outcome as the commit timer and span name it: lower case. */
  private static final Map<Outcome, String> OUTCOMES = new EnumMap<>(Outcome.class);

  static {
    for (Outcome o : Outcome.values()) OUTCOMES.put(o, o.name().toLowerCase(Locale.ROOT));
  }

  private final Options options;
  private final Engine.Outbox outbox;
  private final MeterRegistry metrics;
  private final Meters meters;
  private final Tracing tracing;
  private final InboxAnswers inbox;

  Writes(
      Options options,
      Engine.Outbox outbox,
      MeterRegistry metrics,
      Meters meters,
      Tracing tracing,
      InboxAnswers inbox) {
    this.options = options;
    this.outbox = outbox;
    this.metrics = metrics;
    this.meters = meters;
    this.tracing = tracing;
    this.inbox = inbox;
  }

  /** A record as read: stored, or blank (version 0) for a new or never-written associated one. */
  record Current(String id, long version, long created, long updated, ObjectNode state) {
    ObjectNode view() {
      return Binding.view(id, version, created, updated, state);
    }
  }

  /** A record as a write leaves it: as the store keeps it, and as the run sees it. */
  record Next(StoredRecord record, ObjectNode state) {
    long updated() {
      return record.updated();
    }

    ObjectNode view() {
      return Binding.view(record.id(), record.version(), record.created(), record.updated(), state);
    }
  }

  /** What one attempt comes to: an answer that writes nothing, or a write to commit. */
  sealed interface Attempted {}

  /** An answer without a write: a refusal, a discard. */
  record Answered(Result result) implements Attempted {}

  /**
   * A write: the record as it would be, what to answer when it commits, the trailers its event
   * carries, and the tasks that leave with it.
   */
  record Proposed(Next next, Result result, Map<String, Object> trailers, List<Task> tasks)
      implements Attempted {}

  /** One attempt, on the record as read for it. */
  @FunctionalInterface
  interface Attempt {
    Attempted run(Current current);
  }

  /**
   * Writes the record the call names (a new one when it names none) until an attempt commits or
   * answers without writing: a call already answered is answered from the inbox without running.
   *
   * @param prepare what the attempts share (the input, bound once), made only when an attempt is to
   *     run
   * @param retry whether a lost compare-and-swap is tried again on fresh state, within the retry
   *     policy
   */
  Result write(
      Component component,
      Operation operation,
      Invocation call,
      Turned turned,
      boolean retry,
      Supplier<Attempt> prepare) {
    Store store = component.store().orElseThrow();
    Reading first = turned.first(options, operation, store, call);
    Optional<Result> recorded = inbox.recorded(component, operation, call, first.answer());
    if (recorded.isPresent()) return recorded.get();
    Attempt attempt = prepare.get();
    for (int n = 1; ; n++) {
      Current current =
          current(
              component, call.query(), n == 1 ? first.record() : stored(store, call.query()), true);
      Attempted attempted = attempt.run(current);
      if (attempted instanceof Answered answered) return answered.result();
      Proposed proposed = (Proposed) attempted;
      Optional<Result> answered =
          commit(component, operation, store, current, proposed, call, turned.turn());
      if (answered.isPresent()) return answered.get();
      lost(component, operation, current, n, retry);
    }
  }

  /**
   * The record the query names; a blank one when there is no query (a new record) or the component
   * is associated; {@code null} for a read that finds nothing.
   */
  Current current(Component component, Store store, Optional<Query> query, boolean writing) {
    return current(component, query, stored(store, query), writing);
  }

  /** The record the query names, as {@code stored} holds it: read from the store for this query. */
  private Current current(
      Component component, Optional<Query> query, Optional<StoredRecord> stored, boolean writing) {
    if (query.isEmpty() || query.get().id().isEmpty()) {
      if (!writing)
        throw new Failure(
            Failure.Code.CONTRACT, "query.id is required to read a record of " + component.label());
      return new Current(Identities.fresh(options.random()), 0, 0, 0, component.blank());
    }
    String id = query.get().id().get();
    long version = stored.map(StoredRecord::version).orElse(0L);
    query
        .get()
        .version()
        .ifPresent(
            expected -> {
              if (expected != version) {
                throw new Failure(
                    Failure.Code.PRECONDITION,
                    "record "
                        + id
                        + " of "
                        + component.label()
                        + " is at version "
                        + version
                        + ", not "
                        + expected);
              }
            });
    if (stored.isPresent()) {
      StoredRecord r = stored.get();
      return new Current(r.id(), r.version(), r.created(), r.updated(), Binding.object(r.state()));
    }
    if (component.entity().orElseThrow().associated())
      return new Current(id, 0, 0, 0, component.blank());
    if (!writing) return null;
    throw new Failure(
        Failure.Code.NOT_FOUND, "record " + id + " of " + component.label() + " does not exist");
  }

  /**
   * The record as a write of {@code state} over {@code current} leaves it: the next version,
   * updated now.
   *
   * @throws Failure {@code ENTITY_CONTRACT} when the state does not fit the entity's schema
   */
  Next next(Component component, Current current, ObjectNode state) {
    Schema schema = component.entity().orElseThrow().schema();
    List<Violation> violations = schema.validate(state);
    if (!violations.isEmpty()) {
      throw new Failure(
          Failure.Code.ENTITY_CONTRACT,
          "the new state of record "
              + current.id()
              + " of "
              + component.label()
              + " does not fit the entity, so it was not"
              + " stored: "
              + Engine.describe(violations));
    }
    long now = options.clock().millis();
    return new Next(
        new StoredRecord(
            current.id(),
            current.version() + 1,
            current.version() == 0 ? now : current.created(),
            now,
            Binding.json(state)),
        state);
  }

  /** The record the query names, if it names one and the record was ever written. */
  private static Optional<StoredRecord> stored(Store store, Optional<Query> query) {
    return query.flatMap(Query::id).flatMap(store::read);
  }

  /**
   * Commits the record with its outbox entry (the fact of its change when someone consumes the
   * component's events, the tasks the run sent) and the call's answer (when the operation declares
   * {@code once}); tells the outbox after the commit; hands the record as committed to the next
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
      Proposed proposed,
      Invocation call,
      Turns.Turn turn) {
    Next next = proposed.next();
    Optional<ObjectNode> changed = Optional.empty();
    if (component.announces()) {
      JsonNode origin = current.version() == 0 ? NullNode.getInstance() : current.view();
      changed =
          Optional.of(Announcements.change(origin, next.view(), call.input(), proposed.trailers()));
    }
    Optional<Json> change = changed.map(Binding::json);
    Optional<OutboxEntry> leaving = Optional.empty();
    if (change.isPresent() || !proposed.tasks().isEmpty()) {
      leaving =
          Optional.of(
              new OutboxEntry(
                  Identities.ordered(next.updated(), options.random()),
                  next.updated(),
                  change,
                  Task.encode(proposed.tasks()),
                  outbox.claimedUntil(next.updated()), // this process publishes it at once
                  Tracing.entry(io.opentelemetry.context.Context.current())));
    }
    Optional<InboxEntry> answer =
        inbox.entry(operation, call, proposed.result(), next.updated(), next.record().id());
    turn.hand(null); // until it is known to be committed
    switch (timedCommit(
        component, store, new Write(current.version(), next.record(), leaving, answer))) {
      case COMMITTED:
        turn.hand(next.record());
        // a copy, since the tree shares nodes with the answer and the input, which the caller may
        // change; none when the copy could differ from what the committed text reads back as
        Optional<ObjectNode> built = changed.map(Binding::reread).map(ObjectNode.class::cast);
        leaving.ifPresent(e -> outbox.committed(component, e, built));
        return Optional.of(proposed.result());
      case DUPLICATE:
        return Optional.of(inbox.duplicate(component, operation, store, call));
      default:
        // The compare-and-swap was lost. To a twin of this very call, when its answer is there:
        // that
        // answer is this call's, at once, rather than after a backoff and a run that changes
        // nothing.
        if (answer.isEmpty()) return Optional.empty();
        return inbox.twin(component, operation, store, call);
    }
  }

  /**
   * The store's commit, timed as {@value Engine#COMMIT_TIMER} by component and outcome: {@code
   * committed}, {@code conflict}, {@code duplicate}, or {@code failed} when the storage threw; and
   * traced as a span {@code commit <component>} with the same outcome.
   */
  private Outcome timedCommit(Component component, Store store, Write write) {
    String id = write.record().id();
    Span.current()
        .setAttribute(
            Tracing.RECORD_ID, id); // the call's, which learns the id of a record it creates here
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
      sample.stop(
          meters.timer(Engine.COMMIT_TIMER, "component", component.label(), "outcome", outcome));
    }
  }

  /** After a lost compare-and-swap: waits before the next attempt, or fails the call. */
  private void lost(
      Component component, Operation operation, Current current, int attempt, boolean retry) {
    String where = component.label() + "." + operation.name() + " on record " + current.id();
    if (!retry) {
      throw new Failure(
          Failure.Code.CONCURRENCY,
          where
              + " lost its write to a concurrent one at version "
              + current.version()
              + "; try again, or declare concurrency: retry");
    }
    if (attempt >= options.retry().attempts()) {
      throw new Failure(
          Failure.Code.CONTENTION,
          where
              + " lost its write to concurrent ones "
              + attempt
              + " times in a row, so nothing was written; repeat the call later");
    }
    try {
      options.sleeper().sleep(options.retry().delayMillis(attempt, options.random().nextDouble()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(Failure.Code.SYSTEM, where + " was interrupted while waiting to retry", e);
    }
  }
}
