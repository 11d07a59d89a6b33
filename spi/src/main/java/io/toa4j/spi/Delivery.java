package io.toa4j.spi;

/**
 * A message handed to a consumer.
 *
 * @param message the message, as published
 * @param queue the queue it was taken from
 * @param attempt 1 on the first delivery, one more on each redelivery (after a retry verdict, a
 *     crash before the verdict, or a replay from the parked messages resets nothing: it goes on)
 */
public record Delivery(Message message, String queue, int attempt) {}
