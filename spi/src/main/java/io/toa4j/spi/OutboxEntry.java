package io.toa4j.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What one committed write sends once it is committed, stored in the same transaction as the
 * record: the fact of the change, from which its events are rendered, and the tasks its operation
 * sent. Both leave after the commit, never before, and never for a write that was not committed. A
 * store keeps both as they are given and gives them back unchanged: it never looks inside.
 *
 * @param id 32 lowercase hexadecimal characters, ordered by time; the identities of the events
 *     rendered from it derive from this id, so a re-swept entry yields the same identities
 * @param created epoch milliseconds of the commit
 * @param change {@code { origin, state, input, trailers }}: the record before the write ({@code
 *     null} for a creation), after it, the input of the call, and the trailers the operation set;
 *     empty when no one consumes the component's events
 * @param tasks the tasks the operation sent, in the order it sent them, as a JSON array of {@code {
 *     identity, endpoint, request }}; empty when it sent none
 * @param claimedUntil epoch milliseconds until which one process alone may publish it: its
 *     committer, which publishes it at once, or a sweep that claimed it; after that, any sweep may
 * @param trace the trace context of the call that committed it, as a JSON object of W3C trace
 *     context fields ({@code { "traceparent": ..., "tracestate": ... }}), so that its events and
 *     tasks join that call's trace even when a sweep publishes them after a crash; empty when the
 *     call was not traced, and for every entry written before stores kept it
 */
public record OutboxEntry(
    String id,
    long created,
    Optional<Json> change,
    Optional<Json> tasks,
    long claimedUntil,
    Optional<Json> trace) {
  public OutboxEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(change, "change");
    Objects.requireNonNull(tasks, "tasks");
    Objects.requireNonNull(trace, "trace");
    if (change.isEmpty() && tasks.isEmpty()) {
      throw new IllegalArgumentException(
          "outbox entry "
              + id
              + " carries neither a change nor a task; a write without them has no entry");
    }
  }

  /** An entry without a trace context. */
  public OutboxEntry(
      String id, long created, Optional<Json> change, Optional<Json> tasks, long claimedUntil) {
    this(id, created, change, tasks, claimedUntil, Optional.empty());
  }

  /** An entry with a change and no task. */
  public OutboxEntry(String id, long created, Json change, long claimedUntil) {
    this(id, created, Optional.of(change), Optional.empty(), claimedUntil);
  }

  /** An entry with a change and no task that nobody claims: any sweep may take it at once. */
  public OutboxEntry(String id, long created, Json change) {
    this(id, created, change, created);
  }
}
