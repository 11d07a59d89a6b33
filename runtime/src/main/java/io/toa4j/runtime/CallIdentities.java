package io.toa4j.runtime;

/**
 * The identities the runtime derives, as docs/delivery.md states them, for whoever looks for a
 * call, a task or a message by its identity: an operator's query, a tool, a test. Each is the first
 * 16 bytes of SHA-256 over {@code identity/qualifier}, in hexadecimal; the same on every engine and
 * in every process, so a repeat finds what the first delivery left.
 */
public final class CallIdentities {
  private CallIdentities() {}

  /**
   * The identity of the {@code ordinal}-th call or task (counting from 1) that an operation makes
   * while serving the call {@code served}: the same on every attempt and every delivery of it.
   */
  public static String nth(String served, int ordinal) {
    if (ordinal < 1) throw new IllegalArgumentException("calls are counted from 1, not " + ordinal);
    return Identities.derive(served, ordinal);
  }

  /** The message id of the event {@code label} that the outbox entry {@code entry} announces. */
  public static String event(String entry, String label) {
    return Identities.derive(entry, label);
  }

  /**
   * The identity under which the message {@code message} is handled from the queue {@code queue}.
   */
  public static String delivery(String message, String queue) {
    return Identities.derive(message, queue);
  }
}
