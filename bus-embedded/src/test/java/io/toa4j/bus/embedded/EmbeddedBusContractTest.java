package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusSettings;
import io.toa4j.testkit.bus.BusContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The bus contract, on a file of its own per test. */
class EmbeddedBusContractTest implements BusContract {
  @TempDir Path dir;

  @Override
  public Bus open(Clock clock) {
    return new EmbeddedBusProvider().open(new BusSettings(dir, Map.of(), clock));
  }

  @Override
  public String prefix() {
    return "";
  }
}
