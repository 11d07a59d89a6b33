package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusSettings;
import io.toa4j.tck.bus.CallsContract;
import io.toa4j.tck.bus.ErrorAtAnyDepthContract;
import io.toa4j.tck.bus.ParkingContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bus contract, and what it keeps when an Error meets a publish at any depth, on a file of its
 * own per test.
 */
class EmbeddedBusContractTest implements ErrorAtAnyDepthContract, CallsContract, ParkingContract {
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
