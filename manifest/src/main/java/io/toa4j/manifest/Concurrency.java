package io.toa4j.manifest;

/** What a transition does when another write wins the compare-and-swap. */
public enum Concurrency {
  /** The caller gets a concurrency failure (409). */
  NONE,
  /** The record is read again and the operation run again, with a bounded backoff. */
  RETRY
}
