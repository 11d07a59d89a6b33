package io.toa4j.spi;

/**
 * A message kept aside after failing for good.
 *
 * @param id the parked entry's id, for {@link Bus#replay(String)}
 * @param queue the queue it came from and returns to on replay
 * @param message the message as it was delivered
 * @param code the failure's code
 * @param reason the failure's message
 * @param attempts how many times it was delivered
 * @param at when it was parked, in epoch milliseconds
 */
public record Parked(String id, String queue, Message message, String code, String reason, int attempts, long at) {}
