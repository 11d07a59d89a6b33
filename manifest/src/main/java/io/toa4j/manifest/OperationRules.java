package io.toa4j.manifest;

import java.util.EnumSet;
import java.util.Set;

/**
 * What an operation's type allows: the same rules whether the type is declared in the manifest or
 * inferred from the operation's class by the runtime.
 */
final class OperationRules {
  private static final Set<OperationType> STATEFUL =
      EnumSet.of(OperationType.TRANSITION, OperationType.OBSERVATION, OperationType.ASSIGNMENT);
  private static final Set<OperationType> ONCE =
      EnumSet.of(OperationType.TRANSITION, OperationType.ASSIGNMENT);

  private OperationRules() {}

  /**
   * Refuses what the type does not allow. A declared type is refused at the offending key ({@code
   * operations.send.once}); an inferred one at the operation ({@code operations.send}).
   */
  static void check(
      OperationDeclaration decl, boolean hasEntity, OperationType type, boolean inferred) {
    String is =
        decl.name() + " is " + withArticle(type) + (inferred ? " (inferred from its class)" : "");
    String make = "or make " + decl.name() + " ";
    if (STATEFUL.contains(type) && !hasEntity) {
      throw refuse(
          decl,
          "type",
          inferred,
          is
              + ", which needs an entity, and this component declares none; declare an entity, "
              + make
              + "an effect or a computation");
    }
    if (decl.concurrency() != Concurrency.NONE && type != OperationType.TRANSITION) {
      throw refuse(
          decl,
          "concurrency",
          inferred,
          "concurrency applies to transitions only, and "
              + is
              + "; remove concurrency, "
              + make
              + "a transition");
    }
    if (decl.once().isPresent() && !ONCE.contains(type)) {
      throw refuse(
          decl,
          "once",
          inferred,
          "once applies to transitions and assignments only, and "
              + is
              + "; remove once, "
              + make
              + "a transition or an assignment");
    }
    if (decl.external().isPresent() && type != OperationType.EFFECT) {
      throw refuse(
          decl,
          "external",
          inferred,
          "external applies to effects only (an effect calls the outside provider and commits nothing), and "
              + is
              + "; remove external, "
              + make
              + "an effect");
    }
    if (decl.query() == QueryRule.REQUIRED && type == OperationType.COMPUTATION) {
      throw refuse(
          decl,
          "query",
          inferred,
          is
              + ", which reads no record, so query: true cannot be met; remove query, "
              + make
              + "an observation, a transition or an effect");
    }
  }

  /** {@code a transition}, {@code an effect}. */
  static String withArticle(OperationType type) {
    String name = type.yamlName();
    return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
  }

  private static ManifestException refuse(
      OperationDeclaration decl, String key, boolean inferred, String problem) {
    return new ManifestException(inferred ? decl.path() : decl.path().child(key), problem);
  }
}
