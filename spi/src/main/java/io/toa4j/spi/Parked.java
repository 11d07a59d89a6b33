package io.toa4j.spi;

/**
 * A message kept aside after failing for good.
 *
 * @param id the parked entry's id, for {@link Bus.Parking#replay(String)}
 * @param queue the queue it came from and returns to on replay
 * @param message the message as it was delivered
 * @param code the failure's code
 * @param reason the failure's message
 * @param attempts how many times it was delivered
 * @param at when it was parked, in epoch milliseconds
 * @param firstFailed when it first failed (its first retry, or its parking when it never retried),
 *     in epoch milliseconds: kept by the bus from the first failing verdict on
 */
public record Parked(
    String id,
    String queue,
    Message message,
    String code,
    String reason,
    int attempts,
    long at,
    long firstFailed) {
  /** A parked message that failed first when it was parked. */
  public Parked(
      String id, String queue, Message message, String code, String reason, int attempts, long at) {
    this(id, queue, message, code, reason, attempts, at, at);
  }
}
