package io.toa4j.manifest;

/** Whether a request to an operation must, may or must not carry a query. */
public enum QueryRule {
  /** {@code query: true} */
  REQUIRED,
  /** {@code query: false} */
  FORBIDDEN,
  /** {@code query} absent */
  OPTIONAL
}
