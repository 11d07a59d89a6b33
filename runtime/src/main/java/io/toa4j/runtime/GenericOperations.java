package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.spi.Store;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The operations toa4j implements itself, for a component that declares them without code: {@code
 * transit} (and what forwards to it), {@code observe} and {@code enumerate}; a generic assignment's
 * changeset is its input ({@link Engine}).
 *
 * <p>Invariants: {@code transit} is a transition like any — the input merged into the record
 * property by property, committed through the same compare-and-swap loop ({@link Writes}), a new
 * record when no query names one, answering the record; {@code observe} answers the record or
 * nothing; {@code enumerate} answers one page of at most {@value #MAX_PAGE} records, {@value
 * #DEFAULT_PAGE} unless the query says, and refuses another limit as {@code CONTRACT}. With checks
 * on, what an observation answers fits its output schema. Thread-safe and stateless.
 */
final class GenericOperations {
  private static final long DEFAULT_PAGE = 100;
  private static final long MAX_PAGE = 1000;

  private final Options options;
  private final Writes writes;

  GenericOperations(Options options, Writes writes) {
    this.options = options;
    this.writes = writes;
  }

  /** {@code transit}: one attempt merges the input into the record as read for it. */
  Writes.Attempt transit(Component component, Invocation call) {
    return current -> {
      ObjectNode state = current.state().deepCopy();
      if (call.input().isObject())
        call.input().properties().forEach(e -> state.set(e.getKey(), e.getValue().deepCopy()));
      Writes.Next next = writes.next(component, current, state);
      return new Writes.Proposed(next, new Result.Output(next.view()), Map.of(), List.of());
    };
  }

  /** {@code observe} and {@code enumerate}. */
  Result observation(Component component, Operation operation, Invocation call) {
    Store store = component.store().orElseThrow();
    if (operation.implementation().equals("observe")) {
      Writes.Current current = writes.current(component, store, call.query(), false);
      if (current == null) return new Result.Output(MissingNode.getInstance());
      if (options.checks()) Engine.checkOutput(component, operation, current.view());
      return new Result.Output(current.view());
    }
    Query query = call.query().orElse(Query.page(DEFAULT_PAGE, 0));
    long limit = query.limit().orElse(DEFAULT_PAGE);
    if (limit < 1 || limit > MAX_PAGE) {
      throw new Failure(
          Failure.Code.CONTRACT, "query.limit must be from 1 to " + MAX_PAGE + "; got " + limit);
    }
    var page = Binding.VALUES.createArrayNode();
    store
        .find(
            Selections.of(
                component.label(),
                component.entity().orElseThrow(),
                query,
                limit,
                query.omit().orElse(0)))
        .forEach(r -> page.add(Binding.view(r)));
    if (options.checks()) Engine.checkOutput(component, operation, page);
    return new Result.Output(page);
  }
}
