package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generic operations as Toa gives them: {@code transit} declared without a class (the input
 * merged into the record), an operation forwarding to it under its own contract, and {@code
 * observe} and {@code enumerate} re-declared with schemas — on real SQLite files.
 */
class GenericOperationsTest {
  static final String BOOK = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  private Path library() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.books/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            title: { type: string }
            pages: { type: integer, minimum: 1 }
          required: [title]
        operations:
          transit:
            concurrency: retry
          create:
            forward: transit
            query: false
            input: { type: object, properties: { title: { type: string } }, required: [title], additionalProperties: false }
          observe:
            output: { type: object, required: [title, pages] }
        """);
    return directory;
  }

  private Toa boot(boolean checks) {
    return Toa.builder()
        .directory(library())
        .options(Options.defaults().withChecks(checks))
        .build();
  }

  private static Map<String, Object> output(Toa app, String operation, Request request) {
    return Shop.output(app.call("test.books." + operation, request));
  }

  @Test
  void forwardToTransit_createsARecordFromItsOwnInput_andRefusesAQuery() {
    try (Toa app = boot(false)) {
      Map<String, Object> created = output(app, "create", Request.input(Map.of("title", "Dune")));

      assertThat(created)
          .containsEntry("title", "Dune")
          .containsEntry("VERSION", 1L)
          .containsKey("id");
      assertThat(output(app, "observe", Request.id((String) created.get("id"))))
          .containsEntry("title", "Dune");
      assertThatThrownBy(
              () -> app.call("test.books.create", Request.of(BOOK, Map.of("title", "Emma"))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT));
      assertThatThrownBy(
              () ->
                  app.call("test.books.create", Request.input(Map.of("title", "Emma", "pages", 3))))
          .as("create's own contract, not transit's")
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT));
    }
  }

  @Test
  void transit_mergesTheInputIntoTheRecord_keepingWhatItDoesNotName() {
    try (Toa app = boot(false)) {
      output(app, "transit", Request.of(BOOK, Map.of("title", "Dune")));
      Map<String, Object> merged = output(app, "transit", Request.of(BOOK, Map.of("pages", 412)));

      assertThat(merged)
          .containsEntry("title", "Dune")
          .containsEntry("pages", 412L)
          .containsEntry("VERSION", 2L);
      assertThatThrownBy(
              () -> app.call("test.books.transit", Request.of(BOOK, Map.of("colour", "red"))))
          .as("the entity's properties only")
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT));
      assertThatThrownBy(() -> app.call("test.books.transit", Request.of(BOOK, Map.of("pages", 0))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT));
      assertThat(output(app, "observe", Request.id(BOOK))).containsEntry("VERSION", 2L);
    }
  }

  @Test
  void transit_onAStaleVersion_isAPreconditionFailure_andWritesNothing() {
    try (Toa app = boot(false)) {
      output(app, "transit", Request.of(BOOK, Map.of("title", "Dune")));

      assertThatThrownBy(
              () ->
                  app.call(
                      "test.books.transit",
                      Request.of(io.toa4j.api.Query.id(BOOK, 5), Map.of("pages", 9))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.PRECONDITION));
      assertThat(output(app, "observe", Request.id(BOOK)))
          .containsEntry("VERSION", 1L)
          .doesNotContainKey("pages");
    }
  }

  @Test
  void redeclaredObserve_checksItsOutputSchema_whenChecksAreOn() {
    try (Toa checked = boot(true)) {
      output(checked, "transit", Request.of(BOOK, Map.of("title", "Dune")));

      assertThatThrownBy(() -> checked.call("test.books.observe", Request.id(BOOK)))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.RESPONSE_CONTRACT))
          .hasMessageContaining("test.books.observe")
          .hasMessageContaining("pages");
      output(checked, "transit", Request.of(BOOK, Map.of("pages", 412)));
      assertThat(output(checked, "observe", Request.id(BOOK))).containsEntry("pages", 412L);
    }
    try (Toa unchecked = boot(false)) {
      output(unchecked, "transit", Request.of(BOOK, Map.of("title", "Emma")));
      assertThat(output(unchecked, "observe", Request.id(BOOK))).containsEntry("title", "Emma");
    }
  }

  @Test
  void aClassForTransit_isRefusedAtStartup_namingIt() {
    library();
    Contexts.write(
        directory,
        "components/test.books/Book.java",
        """
        package test.books;
        public class Book extends io.toa4j.api.Entry { public String title; public Long pages; }
        """);
    Contexts.write(
        directory,
        "components/test.books/operations/Transit.java",
        """
        package test.books.operations;
        public class Transit implements io.toa4j.api.Transition<Object, test.books.Book> {
          public Object transition(Object input, test.books.Book entry) { return entry; }
        }
        """);

    assertThatThrownBy(() -> Toa.builder().directory(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll("operations.transit", "runs no class of its own", "Transit");
  }

  @Test
  void enumerate_stillPages_whileTransitExistsOnlyWhereDeclared() {
    try (Toa app = boot(false)) {
      output(app, "create", Request.input(Map.of("title", "Dune")));
      output(app, "create", Request.input(Map.of("title", "Emma")));

      Object page =
          ((io.toa4j.api.Reply.Output) app.call("test.books.enumerate", Request.empty()))
              .value()
              .orElseThrow();
      assertThat((List<?>) page).hasSize(2);
    }
  }
}
