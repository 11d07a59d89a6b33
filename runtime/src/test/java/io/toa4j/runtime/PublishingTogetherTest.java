package io.toa4j.runtime;

import java.nio.file.Path;
import java.util.Map;

/** Publishing together on the embedded engines: SQLite files for the storage and the bus. */
class PublishingTogetherTest extends PublishingTogetherContract {
  @Override
  Toa app(Path context, InterceptedBus bus) {
    return Toa.builder()
        .directory(context)
        .engine(bus)
        .bus(bus.name(), Map.of())
        .options(Options.defaults().withClock(clock))
        .build();
  }

  @Override
  String real() {
    return "embedded";
  }
}
