package io.toa4j.test.core;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.EntityDeclaration;
import io.toa4j.manifest.OperationDeclaration;
import io.toa4j.manifest.OperationType;
import io.toa4j.manifest.QueryRule;
import io.toa4j.manifest.Schema;
import io.toa4j.runtime.Toa;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * An operation {@link Check} calls: its component, its name, whether it takes a query, and the
 * schema its input is drawn from.
 *
 * @param component the component's manifest
 * @param name the operation's name
 * @param query whether a request must, may or must not carry a query
 * @param input the schema of its input; empty when it takes none
 */
record CheckedOperation(
    ComponentManifest component, String name, QueryRule query, Optional<Schema> input) {
  /** The kinds of operation that write: the others cannot end differently when run again. */
  private static final Set<OperationType> WRITING =
      Set.of(OperationType.TRANSITION, OperationType.ASSIGNMENT, OperationType.EFFECT);

  /** {@code namespace.name.operation}. */
  String endpoint() {
    return component.label() + "." + name;
  }

  /**
   * The operations of the context that write, declared ones in declared order, then the generic
   * {@code assign} of each component with an entity (its input an entity's changeset).
   */
  static List<CheckedOperation> writing(Toa toa) {
    List<CheckedOperation> found = new ArrayList<>();
    for (ComponentManifest component : toa.context().components()) {
      for (OperationDeclaration operation : component.operations().values()) {
        if (WRITING.contains(toa.typeOf(component.label(), operation.name()))) {
          found.add(
              new CheckedOperation(
                  component, operation.name(), operation.query(), operation.input()));
        }
      }
      component
          .entity()
          .map(EntityDeclaration::changeset)
          .ifPresent(
              changeset ->
                  found.add(
                      new CheckedOperation(
                          component, "assign", QueryRule.REQUIRED, Optional.of(changeset))));
    }
    return found;
  }

  /**
   * The endpoints a repeat reaches: the operation of each receiver, each operation a route of an
   * exposition names, and each endpoint that was {@code tasks} (delivered as a task), in that
   * order.
   */
  static Set<String> reachable(Toa toa, Set<String> tasks) {
    Set<String> found = new LinkedHashSet<>();
    for (ComponentManifest component : toa.context().components()) {
      component.receivers().forEach(r -> found.add(component.label() + "." + r.operation()));
    }
    for (ComponentManifest component : toa.context().components()) {
      component.exposition().ifPresent(tree -> routed(component.label(), tree, found));
    }
    found.addAll(tasks);
    return found;
  }

  /**
   * The operations named by the methods of a level of the route tree and of the routes under it.
   */
  private static void routed(String component, JsonNode level, Set<String> found) {
    for (Map.Entry<String, JsonNode> entry : level.properties()) {
      if (entry.getKey().startsWith("/")) routed(component, entry.getValue(), found);
      else if (entry.getKey().matches("[A-Z]+") && entry.getValue().isString())
        found.add(component + "." + entry.getValue().asString());
    }
  }
}
