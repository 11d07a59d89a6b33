package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trailers travel with the event and are never stored on the record. */
class TrailersTest {
  static final String ID = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  @Test
  void trailers_reachTheEventsPayload_andAreNotStored() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.notes/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            text: { type: string }
        operations:
          write:
            query: true
            input: { type: object, properties: { text: { type: string }, by: { type: string } }, required: [text, by] }
        """);
    Contexts.write(
        directory,
        "components/test.notes/Note.java",
        """
        package test.notes;
        public class Note extends io.toa4j.api.Entry { public String text; }
        """);
    Contexts.write(
        directory,
        "components/test.notes/operations/Write.java",
        """
        package test.notes.operations;
        public class Write implements io.toa4j.api.Transition<Write.Input, test.notes.Note> {
          public record Input(String text, String by) {}
          public Object transition(Input input, test.notes.Note entry) {
            entry.text = input.text();
            entry.trailers().put("by", input.by());
            return entry;
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.notes/events/Written.java",
        """
        package test.notes.events;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Written implements Event<test.notes.Note> {
          public Object payload(Change<test.notes.Note> change) {
            return Map.of("note", change.state().id(), "by", change.trailers().get("by"), "created", change.creation());
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.audit/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            by: { type: string }
        operations:
          log:
            query: true
            input: { type: object, properties: { by: { type: string } }, required: [by] }
        receivers:
          test.notes.written: log
        """);
    Contexts.write(
        directory,
        "components/test.audit/Line.java",
        """
        package test.audit;
        public class Line extends io.toa4j.api.Entry { public String by; }
        """);
    Contexts.write(
        directory,
        "components/test.audit/operations/Log.java",
        """
        package test.audit.operations;
        public class Log implements io.toa4j.api.Transition<Log.Input, test.audit.Line> {
          public record Input(String by) {}
          public Object transition(Input input, test.audit.Line entry) {
            entry.by = input.by();
            return entry;
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.audit/receivers/TestNotesWritten.java",
        """
        package test.audit.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestNotesWritten implements Receiver<TestNotesWritten.Written> {
          public record Written(String note, String by, boolean created) {}
          public Request request(Written written) {
            return Request.of(written.note(), Map.of("by", written.by()));
          }
        }
        """);
    try (Toa app = Toa.builder().directory(directory).build()) {
      Map<String, Object> note =
          Shop.output(
              app.call("test.notes.write", Request.of(ID, Map.of("text", "hello", "by", "ann"))));

      assertThat(app.admin().settle(Duration.ofSeconds(30))).isEmpty();
      assertThat(note).doesNotContainKeys("by", "TRAILERS").containsEntry("text", "hello");
      assertThat(Shop.output(app.call("test.notes.observe", Request.id(ID))))
          .doesNotContainKeys("by", "TRAILERS");
      assertThat(Shop.output(app.call("test.audit.observe", Request.id(ID))))
          .containsEntry("by", "ann");
    }
  }
}
