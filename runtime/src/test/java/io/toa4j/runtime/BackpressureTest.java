package io.toa4j.runtime;

import java.nio.file.Path;
import java.util.Map;

/** Backpressure on the embedded engines: SQLite files for the storage and the bus. */
class BackpressureTest extends BackpressureContract {
  @Override
  Toa app(Path context, InterceptedBus bus, Options options) {
    return Toa.builder().directory(context).engine(bus).bus(bus.name(), Map.of()).options(options).build();
  }

  @Override
  String real() {
    return "embedded";
  }
}
