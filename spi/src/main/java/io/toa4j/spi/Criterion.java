package io.toa4j.spi;

import java.util.List;
import java.util.Objects;

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

  /**
   * The field compared with the values: one value, or one or more for {@link Operator#IN} and
   * {@link Operator#OUT}.
   */
  record Compare(Selection.Field field, Operator operator, List<Object> values)
      implements Criterion {
    public Compare {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(operator, "operator");
      values = List.copyOf(values);
      boolean many = operator == Operator.IN || operator == Operator.OUT;
      if (values.isEmpty() || (!many && values.size() != 1)) {
        throw new IllegalArgumentException(
            operator
                + " compares "
                + (many ? "with one or more values" : "with one value")
                + "; got "
                + values);
      }
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
}
