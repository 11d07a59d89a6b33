package io.toa4j.spi;

import java.util.List;
import java.util.Set;

/**
 * Carries events and tasks between components, at least once.
 *
 * <p>A queue is durable: what was published or sent to it stays until a consumer's verdict
 * removes it, across crashes of the publisher, the consumer and the bus. Delivery is unordered.
 * A consumer may get a message again (after a crash before its verdict, or a retry), always with
 * the same {@link Message#id()}. Thread-safe.
 */
public interface Bus extends AutoCloseable {
  /**
   * Creates the queue if it does not exist and binds it to event labels; idempotent. Events
   * published to a label before a queue was bound to it are not delivered to that queue.
   */
  void declare(String queue, Set<String> labels);

  /** Delivers an event to every queue bound to its label; durable when it returns. */
  void publish(Message event);

  /** Puts a message on one queue; durable when it returns. */
  void send(String queue, Message message);

  /**
   * Starts handing the queue's messages to the handler, on the bus's own threads, until the
   * subscription is closed. A message whose handler throws is delivered again later.
   *
   * @throws IllegalStateException when this bus cannot consume here, such as an embedded bus whose
   *     file another process already consumes; the message says why
   */
  Subscription consume(String queue, Handler handler);

  /** The parked messages, oldest first. */
  List<Parked> parked();

  /**
   * Puts a parked message back on its queue, due now, keeping its attempt count.
   *
   * @return false when there is no parked message with that id
   */
  boolean replay(String parkedId);

  /** How many messages wait in the queue, due or not, excluding parked ones. */
  long depth(String queue);

  /** What this bus is, for messages. */
  String describe();

  @Override
  void close();

  /** Handles one delivery and answers what to do with it. */
  @FunctionalInterface
  interface Handler {
    Verdict handle(Delivery delivery);
  }

  /**
   * A running consumer; closing it stops deliveries and waits, for a bounded time, for those in
   * progress. A verdict reached after that is lost, and its message comes again.
   */
  interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
