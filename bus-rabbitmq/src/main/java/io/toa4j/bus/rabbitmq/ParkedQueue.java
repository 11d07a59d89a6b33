package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import io.toa4j.spi.Parked;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Reads and replays {@value Topology#PARKED} without an index: it takes every parked message
 * without acknowledging it, looks, and gives back all it does not replay.
 *
 * <p>While one call holds the parked messages, another caller (in another process) sees fewer of
 * them; calls of this bus take turns. The cost is one round trip per parked message, which is fine
 * for the few messages parking is meant for. Thread-safe.
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
   * Puts the parked message back on its queue, with the next attempt number and its first failure,
   * confirmed before it leaves the parked queue; false when there is none with that id.
   */
  boolean replay(String parkedId) throws IOException, InterruptedException, TimeoutException {
    return take(
            parkedId,
            (channel, got, parked) -> {
              declarations.declare(
                  "queue " + parked.queue(), on -> Topology.declareQueue(on, parked.queue()));
              channel.basicPublish(
                  "",
                  parked.queue(),
                  Codec.properties(
                      parked.message(),
                      parked.attempts() + 1,
                      Map.of(Codec.FIRST_FAILED, parked.firstFailed()),
                      null),
                  got.getBody());
              channel.waitForConfirmsOrDie(confirmTimeout.toMillis());
            })
        .isPresent();
  }

  /**
   * Removes the parked message for good; the one removed, or empty when there is none with that id.
   */
  Optional<Parked> discard(String parkedId)
      throws IOException, InterruptedException, TimeoutException {
    return take(parkedId, (channel, got, parked) -> {});
  }

  /** What is done with the parked message found, before it leaves the parked queue. */
  private interface Before {
    void run(Channel channel, GetResponse got, Parked parked)
        throws IOException, InterruptedException, TimeoutException;
  }

  /**
   * Finds the parked message with the id, does {@code before}, and removes it from the parked
   * queue.
   */
  private Optional<Parked> take(String parkedId, Before before)
      throws IOException, InterruptedException, TimeoutException {
    synchronized (turn) {
      Channel channel = channels.open();
      try {
        long count = Topology.ready(channel, Topology.PARKED);
        for (long i = 0; i < count; i++) {
          GetResponse got = channel.basicGet(Topology.PARKED, false);
          if (got == null) return Optional.empty();
          Parked parked = Codec.parked(got.getProps(), got.getBody());
          if (parked.id().equals(parkedId)) {
            before.run(channel, got, parked);
            channel.basicAck(got.getEnvelope().getDeliveryTag(), false);
            return Optional.of(parked);
          }
        }
        return Optional.empty();
      } finally {
        Channels.closeQuietly(channel); // gives back every other message it took
      }
    }
  }
}
