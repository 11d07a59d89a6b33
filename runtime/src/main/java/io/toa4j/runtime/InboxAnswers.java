package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * The inbox's side of the calls of an operation that declares {@code once}: the entry a call's
 * answer is committed in, and the answer a repeat of the call gets from it.
 *
 * <p>Invariants:
 *
 * <ol>
 *   <li>An answer is recorded only in the commit of the change its call made ({@link #entry} is
 *       given to that write, and to nothing else): a refusal, a failure or a discard records
 *       nothing.
 *   <li>A call whose identity is answered and not expired is answered from the inbox without
 *       running ({@link #recorded}, counted {@code toa.inbox.answers}); a twin that lost the race
 *       to commit gets the winner's answer at once ({@link #twin}, counted {@code
 *       toa.inbox.twins}).
 *   <li>One identity never gets the answer to another request: a recorded fingerprint (operation,
 *       query, input) other than the call's refuses it, {@code IDENTITY_REUSED}, writing nothing.
 *   <li>A call that comes again after its answer expired, while the inbox still remembers it was
 *       answered, is refused {@code ALREADY_ANSWERED}: it is never run a second time.
 * </ol>
 *
 * <p>Thread-safe and stateless.
 */
final class InboxAnswers {
  private final Options options;
  private final Meters meters;
  private final long retentionSeconds;
  private final long rememberSeconds;

  /**
   * @param retentionSeconds how long a call's answer is given when its operation states no time
   * @param rememberSeconds how long the record that a call was answered is kept when its operation
   *     states no time
   */
  InboxAnswers(Options options, Meters meters, long retentionSeconds, long rememberSeconds) {
    this.options = options;
    this.meters = meters;
    this.retentionSeconds = retentionSeconds;
    this.rememberSeconds = rememberSeconds;
  }

  /**
   * How long the answers to the operation's calls are given; empty when it does not declare once.
   */
  Optional<Long> retentionSeconds(Operation operation) {
    return operation.declaration().once().map(once -> once.seconds().orElse(retentionSeconds));
  }

  /**
   * The inbox entry committed with a write of the call, answered at {@code now} with {@code result}
   * on record {@code record}; empty when the operation does not declare once.
   */
  Optional<InboxEntry> entry(
      Operation operation, Invocation call, Result result, long now, String record) {
    return retentionSeconds(operation)
        .map(
            seconds ->
                new InboxEntry(
                    call.identity(),
                    Optional.of(stored(result)),
                    now + seconds * 1000,
                    Optional.of(Fingerprints.of(operation.name(), call)),
                    now,
                    now + Math.max(seconds, remembered(operation)) * 1000,
                    Optional.of(record)));
  }

  /** The recorded answer to this very call, as its inbox entry holds it. */
  Optional<Result> recorded(
      Component component, Operation operation, Invocation call, Optional<InboxEntry> entry) {
    if (entry.isEmpty()) return Optional.empty();
    Result replayed = replayed(component, operation, call, entry.get());
    meters.count("toa.inbox.answers", component, operation);
    return Optional.of(replayed);
  }

  /**
   * The answer of the twin of this call that committed first, when it is there: after the store
   * answered that the call's identity is taken, or after a lost compare-and-swap that a twin may
   * have won.
   */
  Optional<Result> twin(Component component, Operation operation, Store store, Invocation call) {
    Optional<InboxEntry> twin = store.recorded(call.identity(), options.clock().millis());
    twin.ifPresent(entry -> meters.count("toa.inbox.twins", component, operation));
    return twin.map(entry -> replayed(component, operation, call, entry));
  }

  /**
   * The answer of the twin that took the call's identity in the inbox as this call committed.
   *
   * @throws Failure {@code SYSTEM} when that answer expired at once: the retention is too short
   */
  Result duplicate(Component component, Operation operation, Store store, Invocation call) {
    return twin(component, operation, store, call)
        .orElseThrow(
            () ->
                new Failure(
                    Failure.Code.SYSTEM,
                    component.label()
                        + "."
                        + operation.name()
                        + ": call "
                        + call.identity()
                        + " was answered by a twin whose answer expired at once; its retention is too short"));
  }

  /**
   * How long the record that a call of the operation was answered is kept, as it or the context
   * states.
   */
  private long remembered(Operation operation) {
    return operation.declaration().once().orElseThrow().rememberSeconds().orElse(rememberSeconds);
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
  private static Result replayed(
      Component component, Operation operation, Invocation call, InboxEntry entry) {
    if (entry.fingerprint().isPresent()
        && !entry.fingerprint().get().equals(Fingerprints.of(operation.name(), call))) {
      throw new Failure(
          Failure.Code.IDENTITY_REUSED,
          "call "
              + call.identity()
              + " of "
              + component.label()
              + "."
              + operation.name()
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
  private static Failure alreadyAnswered(
      Component component, Operation operation, Invocation call, InboxEntry entry) {
    Map<String, String> details = new LinkedHashMap<>();
    if (entry.answered() > 0)
      details.put("answered", java.time.Instant.ofEpochMilli(entry.answered()).toString());
    details.put("component", component.label());
    entry.record().ifPresent(id -> details.put("record", id));
    details.put("identity", call.identity());
    return new Failure(
        Failure.Code.ALREADY_ANSWERED,
        "call "
            + call.identity()
            + " of "
            + component.label()
            + "."
            + operation.name()
            + " was answered"
            + (entry.answered() > 0 ? " at " + details.get("answered") : "")
            + " and its answer is no longer kept, so it is"
            + " not run again"
            + entry
                .record()
                .map(
                    id ->
                        "; what it did is in record "
                            + id
                            + " of "
                            + component.label()
                            + ", read it there")
                .orElse(""),
        details);
  }
}
