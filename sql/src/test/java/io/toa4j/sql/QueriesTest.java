package io.toa4j.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Criterion;
import io.toa4j.spi.Criterion.Operator;
import io.toa4j.spi.Selection;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The parts a dialect writes land where the query needs them, and every parameter lands at its mark
 * — also where a dialect writes a field with parameters of its own, and names it twice.
 */
class QueriesTest {
  private static final Selection.Field CURRENCY =
      new Selection.Field("currency", Selection.Kind.TEXT);
  private static final Selection.Field BALANCE =
      new Selection.Field("balance", Selection.Kind.NUMBER);

  /** A property read by a key given as a parameter, as PostgreSQL's {@code state ->> ?} is. */
  private static final Dialect STANDARD =
      (field, parameters) -> {
        parameters.add(field.name());
        return "(state ->> ?)";
      };

  /**
   * MariaDB's: no IS DISTINCT FROM, no NULLS FIRST or LAST, the state's properties read from its
   * JSON text.
   */
  private static final Dialect MARIADB = new MariadbDialect();

  private static final Selection SELECTION =
      new Selection(
          Optional.of(
              new Criterion.Any(
                  List.of(
                      new Criterion.Compare(CURRENCY, Operator.NE, List.of("USD")),
                      new Criterion.All(
                          List.of(
                              new Criterion.Compare(CURRENCY, Operator.OUT, List.of("EUR", "GBP")),
                              new Criterion.Compare(BALANCE, Operator.GE, List.of(10L))))))),
          List.of(new Selection.Order(BALANCE, true)),
          20,
          40);

  @Test
  void standardSql_marksAndParametersInOrder() {
    List<Object> parameters = new ArrayList<>();
    String sql = Queries.selection(SELECTION, STANDARD, parameters);
    assertThat(sql)
        .isEqualTo(
            " WHERE ((state ->> ?) IS DISTINCT FROM ? OR (((state ->> ?) IS NULL OR (state ->> ?) NOT IN (?, ?)) AND (state ->> ?) >= ?))"
                + " ORDER BY (state ->> ?) DESC NULLS LAST, created, id LIMIT ? OFFSET ?");
    assertThat(parameters)
        .containsExactly(
            "currency",
            "USD",
            "currency",
            "currency",
            "EUR",
            "GBP",
            "balance",
            10L,
            "balance",
            20L,
            40L);
    assertThat(sql.chars().filter(c -> c == '?').count()).isEqualTo(parameters.size());
  }

  @Test
  void mariadb_writesItsOwnComparisonAndOrder_withTheSameParameters() {
    List<Object> parameters = new ArrayList<>();
    String sql = Queries.selection(SELECTION, MARIADB, parameters);
    String currency = "(JSON_VALUE(state, ?) COLLATE utf8mb4_bin)";
    String balance = "CAST(JSON_VALUE(state, ?) AS DECIMAL(65,30))";
    assertThat(sql)
        .isEqualTo(
            " WHERE (NOT ("
                + currency
                + " <=> ?) OR (("
                + currency
                + " IS NULL OR "
                + currency
                + " NOT IN (?, ?)) AND "
                + balance
                + " >= ?))"
                + " ORDER BY "
                + balance
                + " DESC, created, id LIMIT ? OFFSET ?");
    assertThat(sql).doesNotContain("DISTINCT", "NULLS");
    assertThat(parameters)
        .containsExactly(
            "$.\"currency\"",
            "USD",
            "$.\"currency\"",
            "$.\"currency\"",
            "EUR",
            "GBP",
            "$.\"balance\"",
            new BigDecimal("10"),
            "$.\"balance\"",
            20L,
            40L);
    assertThat(sql.chars().filter(c -> c == '?').count()).isEqualTo(parameters.size());
  }

  @Test
  void mariadb_readsSystemPropertiesFromTheirColumns_textsByCodePoint() {
    List<Object> parameters = new ArrayList<>();
    Criterion both =
        new Criterion.All(
            List.of(
                new Criterion.Compare(
                    new Selection.Field("id", Selection.Kind.TEXT), Operator.GT, List.of("a")),
                new Criterion.Compare(
                    new Selection.Field("VERSION", Selection.Kind.NUMBER),
                    Operator.EQ,
                    List.of(2L))));
    assertThat(Queries.where(both, MARIADB, parameters))
        .isEqualTo("(id COLLATE utf8mb4_bin > ? AND version = ?)");
    assertThat(parameters).containsExactly("a", new BigDecimal("2"));
  }

  @Test
  void mariadb_quotesThePropertyInItsPath() {
    List<Object> parameters = new ArrayList<>();
    Selection.Field odd = new Selection.Field("a.b\"c\\", Selection.Kind.TEXT);
    Queries.where(new Criterion.Compare(odd, Operator.EQ, List.of("x")), MARIADB, parameters);
    assertThat(parameters).containsExactly("$.\"a.b\\\"c\\\\\"", "x");
  }

  @Test
  void valuesAreBoundAsTheDialectSays() {
    List<Object> parameters = new ArrayList<>();
    Selection.Field active = new Selection.Field("active", Selection.Kind.BOOLEAN);
    String where =
        Queries.where(
            new Criterion.Compare(active, Operator.EQ, List.of(true)), MARIADB, parameters);
    assertThat(where).isEqualTo("NULLIF(JSON_EXTRACT(state, ?), 'null') = ?");
    assertThat(parameters).containsExactly("$.\"active\"", "true");
  }

  @Test
  void aPlainSelection_hasNoWhere_andKeepsCreationOrder() {
    List<Object> parameters = new ArrayList<>();
    assertThat(Queries.selection(Selection.page(5, 0), STANDARD, parameters))
        .isEqualTo(" ORDER BY created, id LIMIT ? OFFSET ?");
    assertThat(parameters).containsExactly(5L, 0L);
  }
}
