package io.toa4j.manifest;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * A component's {@code entity}.
 *
 * @param properties the declared properties (JSON Schema fragments by name), in declared order
 * @param required the properties a stored record must have
 * @param blank what a record holds before its first write (may be incomplete; each value fits)
 * @param associated whether ids come from outside: reading an id never written answers a blank
 *     record with that id, and the first write creates it
 * @param schema the record's declared properties as one object schema: {@code properties}, {@code
 *     required}, and no other properties; system properties are not part of it
 * @param changeset the same with nothing required, for assignments' changesets
 */
public record EntityDeclaration(
    ObjectNode properties,
    List<String> required,
    ObjectNode blank,
    boolean associated,
    Schema schema,
    Schema changeset) {

  /** Properties the runtime owns; none of them may be declared. */
  public static final List<String> SYSTEM_PROPERTIES =
      List.of("id", "VERSION", "CREATED", "UPDATED", "DELETED", "DISCARD", "TRAILERS");
}
