package io.toa4j.tck.engine;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** What the suites ask of the sources and sinks ({@code Contexts.sourceAndSink}). */
final class SourcesAndSinks {
  private SourcesAndSinks() {}

  /** The id of the {@code n}-th source and of its sink: {@code n} in 32 hexadecimal digits. */
  static String hex(int n) {
    return String.format("%032x", n);
  }

  /** {@code test.sources.emit}'s request for the {@code n}-th source: no failures, no refusal. */
  static Request emit(int n) {
    return Request.of(hex(n), Map.of("failures", 0, "refuse", false));
  }

  /** How many events each sink took, from 1 to n; none for a sink never written. */
  static List<Long> received(Toa app, int n) {
    return IntStream.rangeClosed(1, n)
        .mapToObj(i -> app.call("test.sinks.observe", Request.id(hex(i))))
        .map(
            reply ->
                reply instanceof Reply.Output output
                        && output.value().orElse(Map.of()) instanceof Map<?, ?> sink
                        && sink.get("received") instanceof Number received
                    ? received.longValue()
                    : 0L)
        .toList();
  }
}
