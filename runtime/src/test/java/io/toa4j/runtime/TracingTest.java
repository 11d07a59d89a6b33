package io.toa4j.runtime;

import java.util.List;
import java.util.Map;

/** The trace of a top-up on SQLite and the embedded bus, in one process. */
class TracingTest extends TracingContract {
  @Override
  Options options() {
    return Options.defaults();
  }

  @Override
  List<List<String>> processes() {
    return List.of(List.of());
  }

  @Override
  String bus() {
    return "embedded";
  }

  @Override
  Map<String, String> busOptions() {
    return Map.of();
  }
}
