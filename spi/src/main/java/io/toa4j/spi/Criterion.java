package io.toa4j.spi;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;


/**
 * A condition on a record, as a tree: comparisons of one field with values, joined by all or any.
 * Values are of their field's kind: a {@link String} for a text, a {@link Long}, {@link Double} or
 * {@link java.math.BigDecimal} for a number, a {@link Boolean} for a boolean.
 *
 * <p>A record that lacks the property (or holds null) meets {@link Operator#NE} and {@link
 * Operator#OUT}, and no other comparison.
 */
public sealed interface Criterion {
  /** Every one of its criteria holds. */
  record All(List<Criterion> of) implements Criterion {
    public All {
      of = List.copyOf(of);
      if (of.isEmpty()) throw new IllegalArgumentException("all of no criteria");
    }
  }

  /** At least one of its criteria holds. */
  record Any(List<Criterion> of) implements Criterion {
    public Any {
      of = List.copyOf(of);
      if (of.isEmpty()) throw new IllegalArgumentException("any of no criteria");
    }
  }

  /** The field compared with the values: one value, or one or more for {@link Operator#IN} and {@link Operator#OUT}. */
  record Compare(Selection.Field field, Operator operator, List<Object> values) implements Criterion {
    public Compare {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(operator, "operator");
      values = List.copyOf(values);
      boolean many = operator == Operator.IN || operator == Operator.OUT;
      if (values.isEmpty() || (!many && values.size() != 1)) {
        throw new IllegalArgumentException(operator + " compares " + (many ? "with one or more values" : "with one value") + "; got " + values);
      }
    }

    private String comparison(Sql dialect, List<Object> parameters) {
      String marks = String.join(", ", Collections.nCopies(values.size(), "?"));
      String sql = switch (operator) {
        case EQ -> dialect.field(field, parameters) + " = ?";
        case NE -> dialect.field(field, parameters) + " " + dialect.notEqual() + " ?";
        case LT -> dialect.field(field, parameters) + " < ?";
        case LE -> dialect.field(field, parameters) + " <= ?";
        case GT -> dialect.field(field, parameters) + " > ?";
        case GE -> dialect.field(field, parameters) + " >= ?";
        case IN -> dialect.field(field, parameters) + " IN (" + marks + ")";
        case OUT -> "(" + dialect.field(field, parameters) + " IS NULL OR " + dialect.field(field, parameters) + " NOT IN (" + marks + "))";
      };
      values.forEach(v -> parameters.add(dialect.value(v)));
      return sql;
    }
  }

  /** How a field is compared. */
  enum Operator {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    IN,
    OUT
  }

  /**
   * How a store writes a condition in its SQL.
   *
   * @param fields the value of a field as an SQL expression of its kind, NULL where a record lacks
   *     it, adding the parameters it needs
   * @param notEqual the operator under which NULL differs from every value: {@code IS NOT}, {@code
   *     IS DISTINCT FROM}
   * @param values a value as the store's driver binds it against its field
   */
  record Sql(BiFunction<Selection.Field, List<Object>, String> fields, String notEqual, UnaryOperator<Object> values) {
    public Sql {
      Objects.requireNonNull(fields, "fields");
      Objects.requireNonNull(notEqual, "notEqual");
      Objects.requireNonNull(values, "values");
    }

    /** The field as an SQL expression, its parameters added. */
    public String field(Selection.Field field, List<Object> parameters) {
      return fields.apply(field, parameters);
    }

    /** The value as a parameter. */
    public Object value(Object value) {
      return values.apply(value);
    }
  }

  /**
   * The condition as standard SQL in the store's terms, its parameters added in the order of their
   * marks: comparisons joined with {@code AND} and {@code OR} in parentheses; a NULL value (a
   * missing property) meets only {@link Operator#NE} and {@link Operator#OUT}.
   */
  default String sql(Sql dialect, List<Object> parameters) {
    if (this instanceof Compare compare) return compare.comparison(dialect, parameters);
    List<Criterion> parts = this instanceof All all ? all.of() : ((Any) this).of();
    String joint = this instanceof All ? " AND " : " OR ";
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < parts.size(); i++) text.append(i == 0 ? "" : joint).append(parts.get(i).sql(dialect, parameters));
    return text.append(')').toString();
  }
}
