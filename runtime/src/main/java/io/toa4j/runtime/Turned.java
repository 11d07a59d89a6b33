package io.toa4j.runtime;

import io.toa4j.api.Query;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Reading;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import java.util.Optional;

/**
 * A write's turn on the record it names ({@link Turns}), with what the write would otherwise read
 * beside the record once its turn came: its call's answer, for an operation that declares {@code
 * once}, looked up while it waited.
 *
 * <p>Invariants: a write that creates its record takes no turn; a turn taken is closed by the
 * write's {@code try}, on every path; the answer is looked up only while waiting, so a call that
 * waited reads nothing more once its turn comes — the call before it handed it the record.
 */
final class Turned implements AutoCloseable {
  private Turns.Turn turn = Turns.NONE;
  private Optional<InboxEntry> answer; // null until looked up

  private Turned() {}

  /** Takes the turn of the call's write on the record its query names; no turn for a new record. */
  static Turned take(
      Turns turns, Options options, Component component, Operation operation, Invocation call) {
    Turned turned = new Turned();
    Optional<String> id = call.query().flatMap(Query::id);
    if (id.isEmpty()) return turned;
    Store store = component.store().orElseThrow();
    boolean once = operation.declaration().once().isPresent();
    turned.turn =
        turns.take(
            component.label() + " " + id.get(),
            () ->
                turned.answer =
                    once
                        ? store.recorded(call.identity(), options.clock().millis())
                        : Optional.empty());
    return turned;
  }

  /**
   * What a write needs before its first attempt: the record the call names and, for an operation
   * that declares once, the call's recorded answer — handed over by the call before it in line, or
   * read together, one request to the store.
   */
  Reading first(Options options, Operation operation, Store store, Invocation call) {
    Optional<StoredRecord> handed = turn.handed();
    if (handed.isPresent() && answer != null)
      return new Reading(answer, handed); // read while it waited
    Optional<String> id = call.query().flatMap(Query::id);
    if (operation.declaration().once().isEmpty())
      return new Reading(Optional.empty(), id.flatMap(store::read));
    long now = options.clock().millis();
    if (id.isEmpty()) return new Reading(store.recorded(call.identity(), now), Optional.empty());
    return store.read(id.get(), call.identity(), now);
  }

  /** The turn, to hand the record on to the next call in line. */
  Turns.Turn turn() {
    return turn;
  }

  @Override
  public void close() {
    turn.close();
  }
}
