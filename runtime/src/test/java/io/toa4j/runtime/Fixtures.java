package io.toa4j.runtime;

import java.nio.file.Path;

/** Small contexts written for a test. */
final class Fixtures {
  private Fixtures() {}

  /**
   * {@code test.sources}, whose {@code emit} writes {@code { failures, refuse }} to a record and
   * whose {@code schedule} sends the same as a task to the sink, and
   * {@code test.sinks}, which receives {@code test.sources.created} with {@code absorb}: it throws
   * while it has been called fewer times than {@code failures} for that record, refuses when
   * {@code refuse}, and otherwise records the identity of the delivery in its own record, once:
   * {@code received} counts the distinct identities it saw.
   */
  static Path sourceAndSink(Path directory) {
    write(directory, "context.toa.yaml", "name: test\n");
    write(directory, "components/test.sources/manifest.toa.yaml", """
        entity:
          associated: true
          properties:
            failures: { type: integer }
            refuse: { type: boolean }
        operations:
          emit:
            query: true
            input:
              type: object
              properties:
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [failures, refuse]
          schedule:
            input:
              type: object
              properties:
                id: { type: string }
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [id, failures, refuse]
        """);
    write(directory, "components/test.sources/operations/Schedule.java", """
        package test.sources.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Schedule implements Effect<Schedule.Input> {
          public record Input(String id, long failures, boolean refuse) {}
          public Object effect(Input input, Context context) {
            context.remote("test.sinks").task("absorb", Request.of(input.id(), Map.of("failures", input.failures(), "refuse", input.refuse())));
            return null;
          }
        }
        """);
    write(directory, "components/test.sources/Source.java", """
        package test.sources;
        public class Source extends io.toa4j.api.Entry {
          public Long failures;
          public Boolean refuse;
        }
        """);
    write(directory, "components/test.sources/operations/Emit.java", """
        package test.sources.operations;
        import test.sources.Source;
        public class Emit implements io.toa4j.api.Transition<Emit.Input, Source> {
          public record Input(long failures, boolean refuse) {}
          public Object transition(Input input, Source entry) {
            entry.failures = input.failures();
            entry.refuse = input.refuse();
            return entry;
          }
        }
        """);
    write(directory, "components/test.sinks/manifest.toa.yaml", """
        entity:
          associated: true
          properties:
            received: { type: integer }
            identities: { type: object, additionalProperties: { type: boolean } }
        operations:
          absorb:
            concurrency: retry
            query: true
            input:
              type: object
              properties:
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [failures, refuse]
            errors: [REFUSED]
        receivers:
          test.sources.created: absorb
        """);
    write(directory, "components/test.sinks/Sink.java", """
        package test.sinks;
        public class Sink extends io.toa4j.api.Entry {
          public long received;
          public java.util.Map<String, Boolean> identities = new java.util.LinkedHashMap<>();
        }
        """);
    write(directory, "components/test.sinks/operations/Absorb.java", """
        package test.sinks.operations;
        import io.toa4j.api.Refusal;
        import java.util.Map;
        import java.util.concurrent.ConcurrentHashMap;
        import test.sinks.Sink;
        public class Absorb implements io.toa4j.api.Transition<Absorb.Input, Sink> {
          public record Input(long failures, boolean refuse) {}
          private static final Map<String, Integer> CALLS = new ConcurrentHashMap<>();
          public Object transition(Input input, Sink entry, io.toa4j.api.Context context) {
            int call = CALLS.merge(entry.id(), 1, Integer::sum);
            if (call <= input.failures()) {
              throw new IllegalStateException("failure " + call + " of " + input.failures());
            }
            if (input.refuse()) return Refusal.of("REFUSED");
            if (entry.identities.containsKey(context.identity())) {
              entry.discard(); // this delivery was recorded already
              return entry;
            }
            entry.identities.put(context.identity(), true);
            entry.received++;
            return entry;
          }
        }
        """);
    write(directory, "components/test.sinks/receivers/TestSourcesCreated.java", """
        package test.sinks.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestSourcesCreated implements Receiver<TestSourcesCreated.Source> {
          public record Source(String id, long failures, boolean refuse) {}
          public Request request(Source source) {
            return Request.of(Query.id(source.id()), Map.of("failures", source.failures(), "refuse", source.refuse()));
          }
        }
        """);
    return directory;
  }

  static void write(Path context, String file, String text) {
    Shop.write(context, file, text);
  }

  static void edit(Path context, String file, String from, String to) {
    Shop.edit(context, file, from, to);
  }
}
