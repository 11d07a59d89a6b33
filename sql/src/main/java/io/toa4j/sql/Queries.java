package io.toa4j.sql;

import io.toa4j.spi.Criterion;
import io.toa4j.spi.Selection;
import java.util.Collections;
import java.util.List;

/**
 * A {@link Selection} and its {@link Criterion} written as SQL in an engine's {@link Dialect}, the
 * parameters added in the order of their marks. What the SQL means is the same on every engine: a
 * record lacking a property (or holding null) meets {@link Criterion.Operator#NE} and {@link
 * Criterion.Operator#OUT} and no other comparison, sorts first ascending and last descending, and
 * records equal on every sort key keep their creation order, ties by id.
 */
public final class Queries {
  private Queries() {}

  /**
   * What follows {@code SELECT ... FROM <records>} for this selection: its {@code WHERE} (see
   * {@link #where}), its {@code ORDER BY} (the sort, then {@code created, id}) and {@code LIMIT ?
   * OFFSET ?}, the limit and the omit added last, as {@link Long}s. The records' table has the
   * columns {@code created} and {@code id}.
   */
  public static String selection(Selection selection, Dialect dialect, List<Object> parameters) {
    StringBuilder sql = new StringBuilder();
    selection
        .criteria()
        .ifPresent(c -> sql.append(" WHERE ").append(where(c, dialect, parameters)));
    sql.append(" ORDER BY ");
    for (Selection.Order order : selection.sort()) {
      sql.append(dialect.order(dialect.field(order.field(), parameters), order.descending()))
          .append(", ");
    }
    parameters.add(selection.limit());
    parameters.add(selection.omit());
    return sql.append("created, id LIMIT ? OFFSET ?").toString();
  }

  /**
   * The condition: comparisons joined with {@code AND} and {@code OR} in parentheses, each value a
   * mark.
   */
  public static String where(Criterion criterion, Dialect dialect, List<Object> parameters) {
    if (criterion instanceof Criterion.Compare compare)
      return comparison(compare, dialect, parameters);
    List<Criterion> parts =
        criterion instanceof Criterion.All all ? all.of() : ((Criterion.Any) criterion).of();
    String joint = criterion instanceof Criterion.All ? " AND " : " OR ";
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < parts.size(); i++)
      text.append(i == 0 ? "" : joint).append(where(parts.get(i), dialect, parameters));
    return text.append(')').toString();
  }

  private static String comparison(
      Criterion.Compare compare, Dialect dialect, List<Object> parameters) {
    String marks = String.join(", ", Collections.nCopies(compare.values().size(), "?"));
    String field = dialect.field(compare.field(), parameters);
    String sql =
        switch (compare.operator()) {
          case EQ -> field + " = ?";
          case NE -> dialect.notEqual(field);
          case LT -> field + " < ?";
          case LE -> field + " <= ?";
          case GT -> field + " > ?";
          case GE -> field + " >= ?";
          case IN -> field + " IN (" + marks + ")";
          case OUT ->
              "("
                  + field
                  + " IS NULL OR "
                  + dialect.field(compare.field(), parameters)
                  + " NOT IN ("
                  + marks
                  + "))";
        };
    compare.values().forEach(v -> parameters.add(dialect.value(v)));
    return sql;
  }
}
