package io.toa4j.manifest;

import tools.jackson.databind.node.ObjectNode;

/**
 * A component's {@code configuration}: the schema its values must fit and the manifest's defaults,
 * in either of Toa's two forms — {@code { schema, defaults }}, or the mapping itself as the schema
 * (docs/manifest.md, "Configuration").
 *
 * @param schema what the values must fit, an object; its own {@code default}s are given to missing
 *     properties before the values are checked
 * @param defaults the manifest's {@code defaults}, under the context's values and the
 *     environment's; an empty object when it declares none
 * @param location where the manifest declares it
 */
public record ConfigurationDeclaration(Schema schema, ObjectNode defaults, Location location) {
  public ConfigurationDeclaration {
    defaults = defaults.deepCopy();
  }

  /** The defaults, a copy of its own for the caller. */
  @Override
  public ObjectNode defaults() {
    return defaults.deepCopy();
  }
}
