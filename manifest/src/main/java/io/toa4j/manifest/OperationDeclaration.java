package io.toa4j.manifest;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One entry of a component's {@code operations}.
 *
 * @param name the operation's name, as in {@code namespace.name.operation}
 * @param path where it is declared: the manifest file and the YAML path {@code operations.<name>}
 * @param type the declared type; empty when it is to be inferred from the class
 * @param concurrency for transitions; {@link Concurrency#NONE} when not declared
 * @param query whether requests must, may or must not carry a query
 * @param once the {@code once} declaration, if any ({@code once: false} is empty)
 * @param input the input schema; empty when the operation takes no input
 * @param output the output schema, if declared
 * @param errors the refusal codes it may answer with
 * @param forward the generic operation whose implementation it runs ({@code transit}, {@code
 *     observe}, {@code enumerate} or {@code assign}), with the contract declared here; empty for an
 *     operation the author writes
 * @param external for an effect that calls an outside provider ({@code external: true}, or {@code
 *     external: { unknown: <n> }}): how many attempts of a call may end with their outcome unknown
 *     before a delivery of it is parked as {@code OUTCOME_UNKNOWN}; empty for every other operation
 */
public record OperationDeclaration(
    String name,
    Location path,
    Optional<OperationType> type,
    Concurrency concurrency,
    QueryRule query,
    Optional<Once> once,
    Optional<Schema> input,
    Optional<Schema> output,
    Set<String> errors,
    Optional<String> forward,
    OptionalInt external) {

  /** How many unknown outcomes {@code external: true} allows. */
  public static final int UNKNOWN_OUTCOMES = 3;

  /** A declaration of an operation that is not declared external. */
  public OperationDeclaration(
      String name,
      Location path,
      Optional<OperationType> type,
      Concurrency concurrency,
      QueryRule query,
      Optional<Once> once,
      Optional<Schema> input,
      Optional<Schema> output,
      Set<String> errors,
      Optional<String> forward) {
    this(
        name,
        path,
        type,
        concurrency,
        query,
        once,
        input,
        output,
        errors,
        forward,
        OptionalInt.empty());
  }
}
