package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The topology this bus declared on one connection, declared on a channel of its own that lives as
 * long as the connection and that nothing else uses or closes.
 *
 * <p>Why: the client's automatic recovery declares every exchange, queue and binding again, after a
 * lost connection, on the channel that first declared it. Declared on a channel of the publishing
 * pool, which closes channels it has too many of or that failed, recovery would find that channel
 * closed ("channel is already closed due to clean channel shutdown") and a broker that lost its
 * definitions meanwhile would stay without them. This channel is recovered with its connection, so
 * recovery declares everything on it.
 *
 * <p>Should it close anyway (a declaration the broker refuses closes its channel), the next
 * declaration opens another one and declares everything again on it first, so recovery never
 * depends on a closed channel. Thread-safe: declarations take turns.
 */
final class Declarations implements AutoCloseable {
  /** One declaration, as idempotent as the broker makes it. */
  @FunctionalInterface
  interface Declaration {
    void on(Channel channel) throws IOException;
  }

  private final Connection connection;
  private final Map<String, Declaration> done = new LinkedHashMap<>(); // guarded by this
  private Channel channel; // guarded by this

  Declarations(Connection connection) {
    this.connection = connection;
  }

  /**
   * Declares on the channel of declarations, and keeps the declaration, under its key, to declare
   * again on a new channel.
   *
   * @param key what it declares, such as "queue q"; a key declared already is declared again
   */
  synchronized void declare(String key, Declaration declaration) throws IOException {
    Channel on = channel();
    declaration.on(on);
    done.put(key, declaration);
  }

  private Channel channel() throws IOException {
    if (channel != null && channel.isOpen()) return channel;
    if (channel != null && !connection.isOpen()) {
      // the connection is down: recovery brings back this channel with it; a new one would fail
      throw new IOException("the connection to the broker is down; recovery reconnects it");
    }
    Channel opened = connection.createChannel();
    if (opened == null) throw new IOException("the broker has no channel left for this bus");
    for (Declaration earlier : done.values()) earlier.on(opened);
    channel = opened;
    return opened;
  }

  @Override
  public synchronized void close() {
    if (channel != null) Channels.closeQuietly(channel);
  }
}
