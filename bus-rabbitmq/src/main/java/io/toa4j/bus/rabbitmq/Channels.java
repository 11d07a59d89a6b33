package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;

/**
 * The publishing connection's channels, each in confirm mode, lent to one thread at a time.
 *
 * <p>A channel is not thread-safe, so a caller borrows one, uses it alone and gives it back. A
 * channel that failed in any way is closed and dropped rather than returned, because a channel
 * error closes it on the broker's side. Up to {@link #KEEP} idle channels are kept; more are made
 * when more threads publish at once. Thread-safe.
 */
final class Channels implements AutoCloseable {
  static final int KEEP = 8;

  /** Work on a borrowed channel. */
  @FunctionalInterface
  interface Work<T> {
    T on(Channel channel) throws IOException, InterruptedException, TimeoutException;
  }

  private final Connection connection;
  private final Duration confirmTimeout;
  private final BlockingQueue<Channel> idle = new LinkedBlockingQueue<>(KEEP);

  Channels(Connection connection, Duration confirmTimeout) {
    this.connection = connection;
    this.confirmTimeout = confirmTimeout;
  }

  /**
   * Publishes and waits until the broker confirms it has the message (on disk, for a persistent
   * message to a durable queue).
   */
  void publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body)
      throws IOException, InterruptedException, TimeoutException {
    with(
        channel -> {
          channel.basicPublish(exchange, routingKey, properties, body);
          channel.waitForConfirmsOrDie(confirmTimeout.toMillis());
          return null;
        });
  }

  <T> T with(Work<T> work) throws IOException, InterruptedException, TimeoutException {
    Channel channel = borrow();
    boolean healthy = false;
    try {
      T result = work.on(channel);
      healthy = true;
      return result;
    } finally {
      if (healthy && channel.isOpen() && idle.offer(channel)) {
        // kept for the next caller
      } else {
        closeQuietly(channel);
      }
    }
  }

  /** A channel of the publishing connection in confirm mode, which its caller closes. */
  Channel open() throws IOException {
    Channel channel = connection.createChannel();
    if (channel == null) throw new IOException("the broker has no channel left for this bus");
    channel.confirmSelect();
    return channel;
  }

  @Override
  public void close() {
    Channel channel;
    while ((channel = idle.poll()) != null) closeQuietly(channel);
  }

  private Channel borrow() throws IOException {
    Channel channel;
    while ((channel = idle.poll()) != null) {
      if (channel.isOpen()) return channel;
    }
    return open();
  }

  static void closeQuietly(Channel channel) {
    try {
      if (channel.isOpen()) channel.close();
    } catch (IOException | TimeoutException | ShutdownSignalException e) {
      // already closing, or closed by the broker: nothing is left to release
    }
  }
}
