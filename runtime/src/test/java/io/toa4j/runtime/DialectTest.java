package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect suite: a context of our own written in Toa's forms ({@code
 * src/test/resources/dialect}), loaded unchanged and called, each call answered under the contract
 * Toa applies to it — on real SQLite files, with checks on as Toa checks outputs in tests.
 */
class DialectTest {
  static final Path CONTEXT = Path.of("src/test/resources/dialect");
  static final String BOOK = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  Toa app;

  @BeforeEach
  void boot() {
    app =
        Toa.builder()
            .directory(Shop.copy(CONTEXT, directory))
            .options(Options.defaults().withChecks(true))
            .build();
  }

  @AfterEach
  void close() {
    app.close();
  }

  private Map<String, Object> record(String operation, Request request) {
    return Shop.output(app.call("dialect.books." + operation, request));
  }

  private Object value(String operation, Request request) {
    return ((Reply.Output) app.call("dialect.books." + operation, request)).value().orElse(null);
  }

  private void refused(String operation, Request request, String... message) {
    assertThatThrownBy(() -> app.call("dialect.books." + operation, request))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageContainingAll(message);
  }

  @Test
  void create_forwardsToTransit_underItsConciseInput() {
    Map<String, Object> created =
        record(
            "create", Request.input(Map.of("title", "Dune", "pages", 412, "tags", List.of("sf"))));

    assertThat(created)
        .containsEntry("title", "Dune")
        .containsEntry("pages", 412L)
        .containsEntry("VERSION", 1L);
    refused("create", Request.input(Map.of("pages", 412)), "title");
    refused("create", Request.input(Map.of("title", "Dune", "colour", "red")), "colour");
    refused("create", Request.input(Map.of("title", "Dune", "tags", List.of(1))), "tags");
  }

  @Test
  void edit_mergesWhatItNames_underConcisePropertyReferences() {
    record("transit", Request.of(BOOK, Map.of("title", "Dune", "pages", 400)));
    Map<String, Object> subtitle = new HashMap<>();
    subtitle.put("subtitle", null);
    subtitle.put("pages", 412);

    Map<String, Object> edited = record("edit", Request.of(BOOK, subtitle));

    assertThat(edited)
        .containsEntry("title", "Dune")
        .containsEntry("pages", 412L)
        .containsEntry("subtitle", null)
        .containsEntry("VERSION", 2L);
    refused("edit", Request.of(BOOK, Map.of("title", "Emma")), "title");
    refused("edit", Request.of(BOOK, Map.of("pages", "many")), "pages");
    refused("edit", Request.input(Map.of("pages", 1)), "query");
    assertThatThrownBy(
            () -> app.call("dialect.books.edit", Request.of(Query.id(BOOK, 1), Map.of("pages", 1))))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.PRECONDITION));
  }

  @Test
  void observe_redeclared_answersTheRecordUnderItsOutputSchema() {
    record("transit", Request.of(BOOK, Map.of("title", "Dune")));

    assertThat(record("observe", Request.id(BOOK)))
        .containsEntry("title", "Dune")
        .containsEntry("id", BOOK);
  }

  @Test
  void count_getsItsInputsDefault_underAMergedSchema_andItsConciseOutputIsChecked() {
    assertThat(value("count", Request.input(Map.of()))).isEqualTo(20L);
    assertThat(value("count", Request.input(Map.of("limit", 3)))).isEqualTo(6L);
    refused("count", Request.input(Map.of("limit", 0)), "limit");
    refused("count", Request.input(Map.of("colour", "red")), "colour");
  }

  @Test
  void suggest_takesTheAliasedSchemaOfCreate() {
    assertThat(value("suggest", Request.input(Map.of("title", "Dune", "tags", List.of("sf")))))
        .isEqualTo("Dune #sf");
    refused("suggest", Request.input(Map.of("pages", 1)), "title");
  }

  @Test
  void stamp_presentOnlyAsAClass_isCalled() {
    assertThat(app.call("dialect.books.stamp", Request.empty()))
        .isEqualTo(new Reply.Output(Optional.of("stamped")));
  }

  private static Request where(String criteria, String sort) {
    return new Request(
        Optional.of(Query.where(criteria, Optional.ofNullable(sort))), Optional.empty());
  }

  private void books() {
    record("create", Request.input(Map.of("title", "Dune", "pages", 412, "tags", List.of("sf"))));
    record("create", Request.input(Map.of("title", "Emma", "pages", 474)));
    record("create", Request.input(Map.of("title", "Beloved", "pages", 324)));
    record("create", Request.input(Map.of("title", "Ubik", "pages", 202, "tags", List.of("sf"))));
  }

  @SuppressWarnings("unchecked")
  private List<String> titles(Request request) {
    return ((List<Map<String, Object>>) value("enumerate", request))
        .stream().map(b -> (String) b.get("title")).toList();
  }

  @Test
  void enumerate_selectsByCriteria_inTheSortsOrder() {
    books();

    assertThat(titles(where("pages>300", "pages:desc"))).containsExactly("Emma", "Dune", "Beloved");
    assertThat(titles(where("pages=lt=400,title==Dune", "title")))
        .containsExactly("Beloved", "Dune", "Ubik");
    assertThat(titles(where("(pages>=400;pages<=450),title=in=(Ubik,Emma)", "pages:asc")))
        .containsExactly("Ubik", "Dune", "Emma");
    assertThat(titles(where("title!=Dune;VERSION==1", "title:desc")))
        .containsExactly("Ubik", "Emma", "Beloved");
    Query window =
        new Query(
            Optional.empty(),
            java.util.OptionalLong.empty(),
            java.util.OptionalLong.of(2),
            java.util.OptionalLong.of(1),
            Optional.of("pages>0"),
            Optional.of("pages"));
    assertThat(titles(new Request(Optional.of(window), Optional.empty())))
        .containsExactly("Beloved", "Dune");
  }

  @Test
  void observeAndTransit_actOnTheFirstRecordTheirCriteriaFind() {
    books();

    assertThat(record("observe", where("pages>400", "pages:desc"))).containsEntry("title", "Emma");
    assertThat(value("observe", where("title==Persuasion", null))).isNull();
    Map<String, Object> edited =
        record(
            "edit",
            new Request(
                Optional.of(Query.where("title==Ubik", Optional.empty())),
                Optional.of(Map.of("pages", 208))));
    assertThat(edited)
        .containsEntry("title", "Ubik")
        .containsEntry("pages", 208L)
        .containsEntry("VERSION", 2L);
    assertThatThrownBy(
            () ->
                app.call(
                    "dialect.books.edit",
                    new Request(
                        Optional.of(Query.where("title==Persuasion", Optional.empty())),
                        Optional.of(Map.of("pages", 1)))))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.NOT_FOUND))
        .hasMessageContaining("title==Persuasion");
  }

  @Test
  void criteriaAndSort_thatDoNotFitTheEntity_areRefusedNamingWhatAndWhere() {
    refused(
        "enumerate", where("colour==red", null), "query.criteria", "no property 'colour'", "title");
    refused("enumerate", where("pages==many", null), "query.criteria", "pages is a number", "many");
    refused(
        "enumerate",
        where("tags==sf", null),
        "query.criteria",
        "'tags' is not a text, a number or a boolean");
    refused("enumerate", where("pages>", null), "query.criteria 'pages>' is not RSQL");
    refused("enumerate", where("pages>1", "pages:sideways"), "query.sort", "pages:sideways");
    refused("enumerate", where("pages>1e400", null), "out of range");
    refused(
        "enumerate", where("(".repeat(40) + "pages>1" + ")".repeat(40), null), "deeper than 32");
    refused(
        "observe",
        new Request(
            Optional.of(
                new Query(
                    Optional.of(BOOK),
                    java.util.OptionalLong.empty(),
                    java.util.OptionalLong.empty(),
                    java.util.OptionalLong.empty(),
                    Optional.of("pages>1"),
                    Optional.empty())),
            Optional.empty()),
        "by id or by criteria and sort, not both");
  }
}
