package io.toa4j.manifest;

import java.util.Optional;
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
    Optional<String> forward) {}
