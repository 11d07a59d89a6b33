package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.manifest.OperationType;
import io.toa4j.spi.Store;
import java.util.Optional;

/**
 * The record an operation on one record acts on when its query names it by criteria rather than by
 * id: the first its criteria find, in the query's sort (a sort alone: the first of all records).
 *
 * <p>Invariants: a query that names the record by id, a call without a query and a generic
 * enumeration are left as they are; the lookup is one {@code find} of one record, before the
 * operation runs, and the call then acts on that record by id — so a write still compares the
 * version it reads, and a record changed between the lookup and the write is read again, not looked
 * up again. An observation whose criteria find nothing answers nothing; an operation that writes
 * fails {@code NOT_FOUND}.
 */
final class Lookup {
  private Lookup() {}

  /** The call acting on the record its criteria find; empty for an observation that finds none. */
  static Optional<Invocation> located(Component component, Operation operation, Invocation call) {
    Optional<Query> query = call.query();
    boolean enumerating = operation.generic() && operation.implementation().equals("enumerate");
    if (query.isEmpty()
        || (query.get().criteria().isEmpty() && query.get().sort().isEmpty())
        || enumerating) return Optional.of(call);
    Store store = component.store().orElseThrow();
    var found =
        store.find(
            Selections.of(component.label(), component.entity().orElseThrow(), query.get(), 1, 0));
    if (!found.isEmpty()) return Optional.of(call.found(found.get(0).id()));
    if (operation.type() == OperationType.OBSERVATION) return Optional.empty();
    throw new Failure(
        Failure.Code.NOT_FOUND,
        "no record of "
            + component.label()
            + query.get().criteria().map(c -> " meets the criteria " + c).orElse(" exists"));
  }
}
