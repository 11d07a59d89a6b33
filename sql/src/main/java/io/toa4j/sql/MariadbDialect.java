package io.toa4j.sql;

import io.toa4j.spi.Selection;
import java.math.BigDecimal;
import java.util.List;

/**
 * Selections in MariaDB's SQL (10.6 and later), over a {@code state} column holding the record's
 * JSON text: a property of the state is read with {@code JSON_VALUE} (or {@code JSON_EXTRACT} for a
 * boolean), its path a parameter, and cast to its kind; a JSON null and a missing property are both
 * NULL. Texts compare by code point ({@code utf8mb4_bin}, as SQLite and PostgreSQL's {@code COLLATE
 * "C"} compare them), numbers by value ({@code DECIMAL(65,30)}).
 *
 * <p>MariaDB has neither {@code IS DISTINCT FROM} nor {@code NULLS FIRST}/{@code NULLS LAST}: a
 * value differing from another, NULL included, is {@code NOT (x <=> ?)}, and an order is plain
 * {@code ASC} or {@code DESC}, since MariaDB sorts NULL first ascending and last descending already
 * (its documented order), which is what a selection asks. The expression is not repeated, so its
 * parameters stay where their marks are. Stateless.
 */
public final class MariadbDialect implements Dialect {
  @Override
  public String field(Selection.Field field, List<Object> parameters) {
    if (field.column().isPresent()) {
      String column = field.column().get();
      return field.kind() == Selection.Kind.TEXT ? column + " COLLATE utf8mb4_bin" : column;
    }
    parameters.add(path(field.name()));
    return switch (field.kind()) {
      case TEXT -> "(JSON_VALUE(state, ?) COLLATE utf8mb4_bin)";
      case NUMBER -> "CAST(JSON_VALUE(state, ?) AS DECIMAL(65,30))";
      // JSON_VALUE answers 1 or 0 for a boolean, as for a number: the JSON text tells them apart
      case BOOLEAN -> "NULLIF(JSON_EXTRACT(state, ?), 'null')";
    };
  }

  /**
   * A number as a decimal, compared by value; a boolean as its JSON text, as the field reads it.
   */
  @Override
  public Object value(Object value) {
    if (value instanceof Boolean b) return b ? "true" : "false";
    if (value instanceof Number n && !(value instanceof BigDecimal))
      return new BigDecimal(n.toString());
    return value;
  }

  @Override
  public String notEqual(String expression) {
    return "NOT (" + expression + " <=> ?)";
  }

  @Override
  public String order(String expression, boolean descending) {
    return expression + (descending ? " DESC" : " ASC");
  }

  /** The JSON path of a top-level property, its name quoted: {@code $."name"}. */
  static String path(String name) {
    return "$.\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
