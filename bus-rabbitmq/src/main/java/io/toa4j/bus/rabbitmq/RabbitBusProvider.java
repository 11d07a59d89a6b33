package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.ConnectionFactory;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import java.util.Map;
import java.util.Set;

/**
 * Opens the RabbitMQ bus, {@code bus: rabbitmq} in a context: durable queues on a broker, with
 * publisher confirms, manual acknowledgements, a retry queue per queue and one parked queue.
 *
 * <p>The broker is the option {@code url}, else the environment variable {@code TOA_RABBITMQ_URL},
 * else {@code amqp://guest:guest@127.0.0.1:5672}; messages show the URL without its password. Other
 * options, all optional: {@code prefetch} (16 per subscription), {@code confirm-timeout-ms} (5000),
 * {@code close-timeout-ms} (10000), {@code heartbeat-seconds} (2). An unknown option or a value out
 * of range fails {@link #open} with a message naming it; so does a broker that cannot be reached.
 *
 * <p>A connection that goes quiet (a dropped link: no FIN, no RST) is noticed by heartbeats: the
 * broker closes it after 2 to 3 heartbeats and hands what it held to other consumers; the client
 * closes it after about two and recovers, trying every second, each try bounded by the connection
 * and handshake timeouts, so it consumes again within seconds of the link's return.
 *
 * <p>The settings' clock only stamps parked messages: the broker decides when a delayed message is
 * due. The state directory is not used. Stateless and thread-safe; every bus it opens is
 * thread-safe, and any number of buses, in any number of processes, may consume one queue.
 */
public final class RabbitBusProvider implements BusProvider {
  /** How long a TCP connect may take: a broker on the network answers in milliseconds. */
  static final int CONNECTION_TIMEOUT_MILLIS = 5_000;

  /** How long the AMQP handshake after it may take, a recovering broker included. */
  static final int HANDSHAKE_TIMEOUT_MILLIS = 5_000;

  /** How long a lost connection waits between tries to connect again. */
  static final int RECOVERY_INTERVAL_MILLIS = 1_000;

  @Override
  public String name() {
    return "rabbitmq";
  }

  /** Distributed: any number of processes consume one broker's queues. */
  static final Set<Bus.Capability> CAPABILITIES = Set.of(Bus.Capability.DISTRIBUTED);

  @Override
  public Set<Bus.Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public Bus open(BusSettings settings) {
    return open(settings, System.getenv());
  }

  Bus open(BusSettings settings, Map<String, String> env) {
    Tuning tuning = Tuning.from(settings.options(), env);
    ConnectionFactory factory = new ConnectionFactory();
    try {
      factory.setUri(tuning.url());
    } catch (Exception e) { // URISyntaxException and the client's own checked exceptions
      throw new IllegalArgumentException(
          "The RabbitMQ URL from " + tuning.source() + " is not an AMQP URL: " + tuning.where(), e);
    }
    factory.setAutomaticRecoveryEnabled(true);
    factory.setTopologyRecoveryEnabled(true);
    factory.setRequestedHeartbeat(tuning.heartbeat());
    // a try to connect into a dropped link gives up after these, and the next follows a second
    // later
    factory.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
    factory.setHandshakeTimeout(HANDSHAKE_TIMEOUT_MILLIS);
    factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL_MILLIS);
    factory.setExceptionHandler(new ConnectionLog());
    return new RabbitBus(tuning, factory, settings.clock());
  }
}
