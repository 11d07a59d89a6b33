package io.toa4j.manifest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A component's {@code manifest.toa.yaml}, validated.
 *
 * @param directory the component's folder (its sources are under it)
 * @param file the manifest file
 * @param namespace the namespace; {@code default} when none is declared or derived
 * @param name the component's name
 * @param entity the entity, if the component keeps state
 * @param operations the declared operations by name, in declared order
 * @param events the declared event names ({@code events} key), in declared order
 * @param receivers the declared receivers, in declared order
 * @param exposition the {@code exposition} tree as declared (validated structurally), if any
 * @param configuration the schema and defaults of the values its operations read, if it declares
 *     them
 * @param state whether it declares {@code state: ~}: an in-memory map its operations share in each
 *     process, as Toa's state extension gives a component's instance
 * @param continuity its continuous effects ({@code continuity:}), each with how many seconds an
 *     unfinished run stays resumable
 */
public record ComponentManifest(
    Path directory,
    Path file,
    String namespace,
    String name,
    Optional<EntityDeclaration> entity,
    Map<String, OperationDeclaration> operations,
    List<String> events,
    List<ReceiverDeclaration> receivers,
    Optional<JsonNode> exposition,
    Optional<ConfigurationDeclaration> configuration,
    boolean state,
    Map<String, Long> continuity) {

  /** A component without continuous effects. */
  public ComponentManifest(
      Path directory,
      Path file,
      String namespace,
      String name,
      Optional<EntityDeclaration> entity,
      Map<String, OperationDeclaration> operations,
      List<String> events,
      List<ReceiverDeclaration> receivers,
      Optional<JsonNode> exposition,
      Optional<ConfigurationDeclaration> configuration,
      boolean state) {
    this(
        directory,
        file,
        namespace,
        name,
        entity,
        operations,
        events,
        receivers,
        exposition,
        configuration,
        state,
        Map.of());
  }

  /**
   * Whether the operation is a continuous effect ({@code continuity:}): its runs are journaled step
   * by step and resumed from the step that failed.
   */
  public boolean continuous(String operation) {
    return continuity.containsKey(operation);
  }

  /** The operations every component with an entity has without declaring them. */
  public static final List<String> GENERIC_OPERATIONS = List.of("observe", "enumerate", "assign");

  /**
   * The generic operations an operation may forward to ({@code forward: transit}), with the type
   * each is: {@code transit}, which merges its input into the record, exists only where declared.
   */
  public static final Map<String, OperationType> FORWARDABLE =
      Map.of(
          "transit", OperationType.TRANSITION,
          "observe", OperationType.OBSERVATION,
          "enumerate", OperationType.OBSERVATION,
          "assign", OperationType.ASSIGNMENT);

  /** {@code namespace.name}. */
  public String label() {
    return namespace + "." + name;
  }
}
