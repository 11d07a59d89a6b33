package io.toa4j.http;

import java.nio.file.Path;

/**
 * A context of two components, one receiving the other's events, whose receiver fails on demand.
 */
final class SourcesAndSinks {
  private SourcesAndSinks() {}

  /**
   * {@code test.sources}, whose {@code emit} writes {@code n}, and {@code test.sinks}, which
   * receives its {@code created} and fails (a transient failure, retried after each of the {@code
   * retries} delays, a YAML list of seconds, then parked) while the system property named {@code
   * failing} is set.
   */
  static void write(Path directory, String failing, String retries) {
    Notes.write(
        directory, "context.toa.yaml", "name: test\ndelivery: { retries: " + retries + " }\n");
    Notes.write(
        directory,
        "components/test.sources/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            n: { type: integer }
        operations:
          emit:
            query: true
            input: { type: object, properties: { n: { type: integer } }, required: [n] }
        """);
    Notes.write(
        directory,
        "components/test.sources/Source.java",
        """
        package test.sources;
        public class Source extends io.toa4j.api.Entry { public Long n; }
        """);
    Notes.write(
        directory,
        "components/test.sources/operations/Emit.java",
        """
        package test.sources.operations;
        public class Emit implements io.toa4j.api.Transition<Emit.Input, test.sources.Source> {
          public record Input(long n) {}
          public Object transition(Input input, test.sources.Source entry) {
            entry.n = input.n();
            return entry;
          }
        }
        """);
    Notes.write(
        directory,
        "components/test.sinks/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            n: { type: integer }
        operations:
          absorb:
            query: true
            input: { type: object, properties: { n: { type: integer } }, required: [n] }
        receivers:
          test.sources.created: absorb
        """);
    Notes.write(
        directory,
        "components/test.sinks/Sink.java",
        """
        package test.sinks;
        public class Sink extends io.toa4j.api.Entry { public Long n; }
        """);
    Notes.write(
        directory,
        "components/test.sinks/operations/Absorb.java",
        """
        package test.sinks.operations;
        public class Absorb implements io.toa4j.api.Transition<Absorb.Input, test.sinks.Sink> {
          public record Input(long n) {}
          public Object transition(Input input, test.sinks.Sink entry) {
            if (System.getProperty("%s") != null) throw new IllegalStateException("failing, as the test asks");
            entry.n = input.n();
            return entry;
          }
        }
        """
            .formatted(failing));
    Notes.write(
        directory,
        "components/test.sinks/receivers/TestSourcesCreated.java",
        """
        package test.sinks.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestSourcesCreated implements Receiver<TestSourcesCreated.Source> {
          public record Source(String id, long n) {}
          public Request request(Source source) {
            return Request.of(Query.id(source.id()), Map.of("n", source.n()));
          }
        }
        """);
  }
}
