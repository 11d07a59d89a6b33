package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls whose callers wait: request and reply over the broker.
 *
 * <ul>
 *   <li>A call goes to its durable call queue through the default exchange, persistent, with a
 *       fresh {@code correlation-id}, {@code reply-to} = this bus's reply queue, and an {@code
 *       expiration} equal to the caller's timeout, so a call nobody took by then is dropped instead
 *       of running after its caller gave up.
 *   <li>Before sending, a passive declare of the call queue counts its consumers: none (or no
 *       queue) means nobody hosts it, and the call is {@link Response.Unserved} at once. A count
 *       that found consumers holds for {@link #SERVED_FOR}: calls to that queue within it are sent
 *       without counting again: counting on every call cost the broker about a fifth of its work
 *       for a call answered at once, and the caller a round trip. A count that found none holds for
 *       nothing, and closing this bus's own responder of the queue forgets the count.
 *   <li>Each bus has one reply queue, {@code toa.replies.<random>}: exclusive, auto-deleted, named
 *       by the bus so automatic recovery declares it again under the same name. One consumer with
 *       automatic acks completes the caller waiting on the correlation id; an answer nobody waits
 *       for any more is dropped.
 *   <li>A responder's answer is published to the call's {@code reply-to} with its {@code
 *       correlation-id}, and confirmed, before the call is acknowledged. A responder that dies
 *       before that leaves the call unacknowledged: the broker hands it to another responder, and
 *       the answer of that one still reaches the caller if it waits. The wait for the confirm is
 *       what puts the answer before the ack: the answer leaves on the publishing connection and the
 *       ack on the consuming one, which the broker does not order, so without it an ack could
 *       arrive first and a lost publishing connection leave an acknowledged call unanswered.
 * </ul>
 *
 * <p>Why not direct reply-to ({@code amq.rabbitmq.reply-to}): it ties the reply to the channel that
 * published the call, which must consume in no-ack mode, so the pooled confirm channels could not
 * send calls. One reply queue per bus costs one declare, once. Thread-safe.
 */
final class Calls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Calls.class);
  static final String REPLIES_PREFIX = "toa.replies.";

  /**
   * How long a count that found consumers is trusted. A call made within it after the last
   * responder stopped is sent, and waits for its timeout (its expiration drops it unrun), as a call
   * does that was counted just before the last responder stopped.
   */
  static final Duration SERVED_FOR = Duration.ofMillis(100);

  private final Connection consuming;
  private final Channels channels;
  private final String replies = REPLIES_PREFIX + UUID.randomUUID();
  private final Map<String, CompletableFuture<Message>> waiting = new ConcurrentHashMap<>();
  private Channel replyChannel; // guarded by this

  /** Call queues whose consumers were counted and found, with when ({@link System#nanoTime()}). */
  private final Map<String, Long> served = new ConcurrentHashMap<>();

  Calls(Connection consuming, Channels channels) {
    this.consuming = consuming;
    this.channels = channels;
  }

  /**
   * Sends the call and waits for its answer.
   *
   * @throws IOException when the broker cannot be asked or told
   */
  Response request(String queue, Message call, Duration timeout)
      throws IOException, InterruptedException, TimeoutException {
    if (!served(queue)) return new Response.Unserved(queue);
    String address = address();
    String correlation = UUID.randomUUID().toString();
    CompletableFuture<Message> answer = new CompletableFuture<>();
    waiting.put(correlation, answer);
    try {
      AMQP.BasicProperties properties =
          Codec.properties(call, 1, Map.of(), Long.toString(Math.max(1, timeout.toMillis())))
              .builder()
              .correlationId(correlation)
              .replyTo(address)
              .build();
      // the caller waits for the answer, and a runner for the call's confirm: a call not confirmed
      // fails its answer
      channels.send("", queue, properties, Codec.body(call), answer::completeExceptionally);
      return new Response.Answered(answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) { // no answer, or no confirm of the call: it may have been sent
      return new Response.Unanswered(timeout);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof TimeoutException)
        return new Response.Unanswered(timeout); // not confirmed in time: it may have been sent
      if (cause instanceof IOException io) throw io;
      if (cause instanceof InterruptedException interrupted) throw interrupted;
      throw new IllegalStateException(
          "Stopped waiting for the answer to call "
              + call.id()
              + " on "
              + queue
              + ": "
              + cause.getMessage(),
          cause);
    } finally {
      waiting.remove(correlation);
    }
  }

  /** Whether the queue has consumers, as counted now or within {@link #SERVED_FOR}. */
  private boolean served(String queue) throws IOException, InterruptedException, TimeoutException {
    long now = System.nanoTime();
    Long counted = served.get(queue);
    if (counted != null && now - counted < SERVED_FOR.toNanos()) return true;
    if (channels.with(channel -> Topology.consumers(channel, queue)) == 0) {
      served.remove(queue);
      return false;
    }
    served.put(queue, now);
    return true;
  }

  /** Counts the queue's consumers again before the next call: this bus stopped serving it. */
  void forget(String queue) {
    served.remove(queue);
  }

  /**
   * The work of a call queue's consumer: the responder's answer, sent to the caller and confirmed.
   * A call without a reply address, or a responder that fails, sends nothing and is acknowledged:
   * running it again would not make an answer arrive.
   */
  Subscriber.Work answering(String queue, Bus.Responder responder) {
    return (delivery, properties) -> {
      String replyTo = properties.getReplyTo();
      String correlation = properties.getCorrelationId();
      if (replyTo == null || correlation == null) {
        LOG.warn(
            "Call {} on queue {} has no reply-to or correlation-id; it is dropped",
            delivery.message().id(),
            queue);
        return;
      }
      Message reply = answer(queue, responder, delivery);
      if (reply == null) return;
      AMQP.BasicProperties answer =
          Codec.properties(reply, 1).builder().deliveryMode(1).correlationId(correlation).build();
      channels.publishFromBus(
          "",
          replyTo,
          answer,
          Codec.body(reply)); // the responder returned: at the bottom of the handler's stack
    };
  }

  private static Message answer(String queue, Bus.Responder responder, Delivery delivery) {
    try {
      Message reply = responder.answer(delivery);
      if (reply == null)
        LOG.warn(
            "The responder of queue {} answered nothing to call {}",
            queue,
            delivery.message().id());
      return reply;
    } catch (RuntimeException | Error e) { // a failing call never stops the consumer
      LOG.warn(
          "The responder of queue {} failed on call {}; it sends no answer",
          queue,
          delivery.message().id(),
          e);
      return null;
    }
  }

  /** The reply queue, declared and consumed on first use. */
  private synchronized String address() throws IOException {
    if (replyChannel != null && replyChannel.isOpen()) return replies;
    Channel channel = consuming.createChannel();
    if (channel == null) throw new IOException("the broker has no channel left for this bus");
    channel.queueDeclare(replies, false, true, true, null);
    channel.basicConsume(replies, true, new Replies(channel));
    replyChannel = channel;
    return replies;
  }

  @Override
  public synchronized void close() {
    waiting
        .values()
        .forEach(w -> w.completeExceptionally(new IllegalStateException("the bus was closed")));
    if (replyChannel != null) Channels.closeQuietly(replyChannel);
  }

  /** Hands each answer to the caller waiting for its correlation id. */
  private final class Replies extends DefaultConsumer {
    Replies(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      CompletableFuture<Message> caller =
          properties.getCorrelationId() == null ? null : waiting.get(properties.getCorrelationId());
      if (caller == null) {
        LOG.debug(
            "An answer came for a call nobody waits for any more (correlation {})",
            properties.getCorrelationId());
        return;
      }
      caller.complete(Codec.message(properties, body));
    }
  }
}
