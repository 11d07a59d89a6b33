package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import io.toa4j.spi.Parked;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Reads and replays {@value Topology#PARKED} without an index: it takes every parked message
 * without acknowledging it, looks, and gives back all it does not replay.
 *
 * <p>While one call holds the parked messages, another caller (in another process) sees fewer of
 * them; calls of this bus take turns. The cost is one round trip per parked message, which is
 * fine for the few messages parking is meant for. Thread-safe.
 */
final class ParkedQueue {
  private final Channels channels;
  private final Declarations declarations;
  private final Duration confirmTimeout;
  private final Object turn = new Object();

  ParkedQueue(Channels channels, Declarations declarations, Duration confirmTimeout) {
    this.channels = channels;
    this.declarations = declarations;
    this.confirmTimeout = confirmTimeout;
  }

  /** The parked messages, oldest first. */
  List<Parked> list() throws IOException, TimeoutException {
    List<Parked> parked = new ArrayList<>();
    synchronized (turn) {
      Channel channel = channels.open();
      try {
        long count = Topology.ready(channel, Topology.PARKED);
        for (long i = 0; i < count; i++) {
          GetResponse got = channel.basicGet(Topology.PARKED, false);
          if (got == null) break;
          parked.add(Codec.parked(got.getProps(), got.getBody()));
        }
      } finally {
        Channels.closeQuietly(channel); // gives back every message it took
      }
    }
    parked.sort(Comparator.comparingLong(Parked::at));
    return parked;
  }

  /**
   * Puts the parked message back on its queue, with the next attempt number, confirmed before it
   * leaves the parked queue; false when there is none with that id.
   */
  boolean replay(String parkedId) throws IOException, InterruptedException, TimeoutException {
    synchronized (turn) {
      Channel channel = channels.open();
      try {
        long count = Topology.ready(channel, Topology.PARKED);
        for (long i = 0; i < count; i++) {
          GetResponse got = channel.basicGet(Topology.PARKED, false);
          if (got == null) return false;
          Parked parked = Codec.parked(got.getProps(), got.getBody());
          if (parked.id().equals(parkedId)) {
            declarations.declare("queue " + parked.queue(), on -> Topology.declareQueue(on, parked.queue()));
            channel.basicPublish(
                "",
                parked.queue(),
                Codec.properties(parked.message(), parked.attempts() + 1),
                got.getBody());
            channel.waitForConfirmsOrDie(confirmTimeout.toMillis());
            channel.basicAck(got.getEnvelope().getDeliveryTag(), false);
            return true;
          }
        }
        return false;
      } finally {
        Channels.closeQuietly(channel); // gives back every other message it took
      }
    }
  }
}
