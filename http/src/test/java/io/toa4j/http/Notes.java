package io.toa4j.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A context with one exposed component, written for a test. */
final class Notes {
  private Notes() {}

  static Path context(Path directory) {
    write(directory, "context.toa.yaml", "name: test\n");
    write(
        directory,
        "components/test.notes/manifest.toa.yaml",
        """
        entity:
          properties:
            text: { type: string, maxLength: 100 }
        operations:
          create:
            query: false
            input: { type: object, properties: { text: { type: string } }, required: [text] }
          write:
            query: true
            input: { type: object, properties: { text: { type: string } }, required: [text] }
            errors: [FORBIDDEN]
        exposition:
          auth:anonymous: true
          auth:anyone: true
          /:
            io:output: [id, text, VERSION]
            POST: create
          /:id:
            io:output: [id, text, VERSION]
            io:input: [text]
            GET: observe
            PUT: write
            PATCH: assign
          /:id/quiet:
            PUT: write
          /:id/secret:
            auth:anonymous: false
            auth:anyone: false
            auth:role: staff
            GET: observe
        """);
    write(
        directory,
        "components/test.notes/Note.java",
        """
        package test.notes;
        public class Note extends io.toa4j.api.Entry { public String text; }
        """);
    write(
        directory,
        "components/test.notes/operations/Create.java",
        """
        package test.notes.operations;
        public class Create implements io.toa4j.api.Transition<Create.Input, test.notes.Note> {
          public record Input(String text) {}
          public Object transition(Input input, test.notes.Note entry) {
            entry.text = input.text();
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.notes/operations/Write.java",
        """
        package test.notes.operations;
        import io.toa4j.api.Refusal;
        public class Write implements io.toa4j.api.Transition<Write.Input, test.notes.Note> {
          public record Input(String text) {}
          public Object transition(Input input, test.notes.Note entry) {
            if (input.text().equals("forbidden")) return Refusal.of("FORBIDDEN", java.util.Map.of("word", "forbidden"));
            entry.text = input.text();
            return entry;
          }
        }
        """);
    return directory;
  }

  static void write(Path root, String file, String text) {
    try {
      Path path = root.resolve(file);
      Files.createDirectories(path.getParent());
      Files.writeString(path, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
