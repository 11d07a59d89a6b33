package io.toa4j.manifest;

import java.nio.file.Path;

/**
 * Where something is declared: a file and a YAML path in it, such as {@code
 * components/billing.wallets/manifest.toa.yaml} and {@code operations.credit.once}.
 */
public record Location(Path file, String yamlPath) {
  /** The location of a key under this one. */
  public Location child(String key) {
    return new Location(file, yamlPath.isEmpty() ? key : yamlPath + "." + key);
  }

  @Override
  public String toString() {
    return file + (yamlPath.isEmpty() ? "" : " at " + yamlPath);
  }
}
