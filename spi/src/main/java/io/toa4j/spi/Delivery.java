package io.toa4j.spi;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A message handed to a consumer.
 *
 * @param message the message, as published
 * @param queue the queue it was taken from
 * @param attempt 1 on the first delivery, one more on each redelivery (after a retry verdict, a
 *     crash before the verdict, or a replay from the parked messages resets nothing: it goes on)
 * @param firstFailed when a verdict on this message first failed it (retry or park), in epoch
 *     milliseconds, as the bus keeps it with the message; empty before its first failure, and for a
 *     message a bus kept before it recorded the time
 */
public record Delivery(Message message, String queue, int attempt, OptionalLong firstFailed) {
  public Delivery {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(firstFailed, "firstFailed");
  }

  /** A delivery of a message that has not failed yet. */
  public Delivery(Message message, String queue, int attempt) {
    this(message, queue, attempt, OptionalLong.empty());
  }
}
