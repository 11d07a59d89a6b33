package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The broker's objects this bus uses, and their names.
 *
 * <ul>
 *   <li>{@value #EVENTS}: a durable direct exchange; an event's routing key is its label, and a
 *       queue is bound once per label it wants.
 *   <li>{@code <queue>}: a durable classic queue, holding messages due now.
 *   <li>{@code <queue>.retry}: a durable queue nobody consumes; a message waits there until its
 *       per-message expiration, then the broker dead-letters it through the default exchange back
 *       to {@code <queue>}.
 *   <li>{@value #PARKED}: one durable queue of parked messages, for every queue.
 * </ul>
 *
 * Declaring is idempotent, as long as nobody declared the same names with other arguments.
 */
final class Topology {
  static final String EVENTS = "toa.events";
  static final String PARKED = "toa.parked";
  static final String RETRY_SUFFIX = ".retry";

  private Topology() {}

  static String retryQueue(String queue) {
    return queue + RETRY_SUFFIX;
  }

  /** The exchange for events and the parked queue. */
  static void declareShared(Channel channel) throws IOException {
    channel.exchangeDeclare(EVENTS, BuiltinExchangeType.DIRECT, true);
    channel.queueDeclare(PARKED, true, false, false, null);
  }

  /** A queue and its retry queue. */
  static void declareQueue(Channel channel, String queue) throws IOException {
    channel.queueDeclare(queue, true, false, false, null);
    channel.queueDeclare(
        retryQueue(queue),
        true,
        false,
        false,
        Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", queue));
  }

  /** A call queue: durable, without a retry queue, since the bus never retries a call. */
  static void declareCallQueue(Channel channel, String queue) throws IOException {
    channel.queueDeclare(queue, true, false, false, null);
  }

  /** Consumers of a queue, or 0 when it does not exist (which closes the channel). */
  static long consumers(Channel channel, String queue) throws IOException {
    try {
      return channel.queueDeclarePassive(queue).getConsumerCount();
    } catch (IOException e) {
      if (notFound(e)) return 0;
      throw e;
    }
  }

  /** Messages ready in a queue, or 0 when it does not exist (which closes the channel). */
  static long ready(Channel channel, String queue) throws IOException {
    return found(channel, queue).map(AMQP.Queue.DeclareOk::getMessageCount).orElse(0);
  }

  /**
   * A queue as a passive declare finds it: its ready messages and consumers; empty when it does not
   * exist (which closes the channel).
   */
  static Optional<AMQP.Queue.DeclareOk> found(Channel channel, String queue) throws IOException {
    try {
      return Optional.of(channel.queueDeclarePassive(queue));
    } catch (IOException e) {
      if (notFound(e)) return Optional.empty();
      throw e;
    }
  }

  static boolean notFound(IOException e) {
    return e.getCause() instanceof ShutdownSignalException s
        && s.getReason() instanceof AMQP.Channel.Close close
        && close.getReplyCode() == AMQP.NOT_FOUND;
  }
}
