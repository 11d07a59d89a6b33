package io.toa4j.spi;

/** What became of a {@link Write}. */
public enum Outcome {
  /** The change is durable. */
  COMMITTED,
  /**
   * Nothing was written: the record was not at the expected version (or, for a creation, already
   * existed).
   */
  CONFLICT,
  /**
   * Nothing was written: the write's inbox entry names a call already answered and not yet
   * forgotten (a twin of the call committed first).
   */
  DUPLICATE
}
