package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import java.util.Set;

/**
 * Opens the embedded bus, {@code bus: embedded} in a context: durable queues in the SQLite file
 * {@code <stateDirectory>/bus.db}, consumed in-process.
 *
 * <p>Any number of buses may be open on one folder, in one process or several, and all of them may
 * declare, publish, send, list, replay and count; only one at a time may consume (the first to call
 * {@link Bus#consume}; the others are refused with an {@link IllegalStateException}), because
 * claims live in the consuming process's memory.
 *
 * <p>Options, all optional: {@code poll-interval-ms} (50), {@code max-in-flight} (16 per
 * subscription), {@code close-timeout-ms} (10000), {@code busy-timeout-ms} (30000), {@code
 * hand-off-wait-ms} (100; 0 stores every event before a handler sees it). An unknown option or a
 * value out of range fails {@link #open} with a message naming it.
 *
 * <p>Stateless and thread-safe; every bus it opens is thread-safe.
 */
public final class EmbeddedBusProvider implements BusProvider {
  @Override
  public String name() {
    return "embedded";
  }

  /**
   * None: one process consumes an embedded bus. One with a hand-off wait (the default) also {@link
   * Bus.Capability#HANDS_FIRST hands first}.
   */
  @Override
  public Set<Bus.Capability> capabilities() {
    return Set.of();
  }

  @Override
  public Bus open(BusSettings settings) {
    return new EmbeddedBus(
        settings.stateDirectory(), Tuning.from(settings.options()), settings.clock());
  }
}
