package io.toa4j.manifest;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The operations a receiver or a route may name: the declared ones, and the generic ones when the
 * component has an entity.
 */
final class OperationNames {
  private final Set<String> names = new LinkedHashSet<>();

  OperationNames(Set<String> declared, boolean hasEntity) {
    names.addAll(declared);
    if (hasEntity) {
      names.addAll(ComponentManifest.GENERIC_OPERATIONS);
    }
  }

  /** The operation named by the node, which must be a string naming one of these operations. */
  String require(Declared value) {
    String name = value.text("write the name of an operation" + choices());
    if (!names.contains(name)) {
      String others = names.isEmpty() ? "" : ", or name one of " + String.join(", ", names);
      throw value.refuse(
          "'"
              + name
              + "' is not an operation of this component; declare it under operations"
              + others);
    }
    return name;
  }

  private String choices() {
    return names.isEmpty() ? " declared under operations" : ", one of " + String.join(", ", names);
  }
}
