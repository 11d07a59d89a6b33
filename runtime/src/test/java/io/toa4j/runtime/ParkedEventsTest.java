package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import java.time.Clock;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Parked messages as events, and bulk replay and discard, on the embedded engines: SQLite files and
 * the embedded bus.
 */
class ParkedEventsTest extends ParkedEventsContract {
  @Override
  Options options() {
    return Options.defaults();
  }

  @Override
  Bus secondBus() {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("embedded"))
        return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), Clock.systemUTC()));
    }
    throw new AssertionError("no embedded bus");
  }
}
