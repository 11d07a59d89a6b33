package io.toa4j.manifest;

/** The kinds of operation; the kind decides which of read, run and commit happen. */
public enum OperationType {
  TRANSITION,
  OBSERVATION,
  ASSIGNMENT,
  EFFECT,
  COMPUTATION;

  /** The name used in manifests: {@code transition}, {@code observation}, ... */
  public String yamlName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
