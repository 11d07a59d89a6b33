package io.toa4j.sql;

import io.toa4j.spi.Selection;
import java.util.List;

/**
 * How one SQL engine writes the parts of a query that engines write differently: where a record's
 * property is, how a value is bound against it, a comparison under which a missing value differs
 * from every value, and an order that puts missing values first ascending and last descending.
 *
 * <p>The defaults are standard SQL (PostgreSQL and SQLite write them so); an engine overrides what
 * its SQL lacks — MariaDB and MySQL have neither {@code IS DISTINCT FROM} nor {@code NULLS FIRST},
 * and write {@code NOT (x <=> ?)} and rely on NULL sorting first ascending ({@link
 * MariadbDialect}). {@link Queries} puts the parts together, so that a store's queries mean the
 * same on every engine.
 */
public interface Dialect {
  /**
   * The value of a field as an SQL expression of its kind, NULL where a record lacks it, adding the
   * parameters it needs in the order of their marks. It is written again for each use: a comparison
   * that names the field twice adds its parameters twice.
   */
  String field(Selection.Field field, List<Object> parameters);

  /** A value as the store's driver binds it against a field; the value itself by default. */
  default Object value(Object value) {
    return value;
  }

  /**
   * The expression compared with the next mark, true when they differ and when exactly one of them
   * is NULL: standard SQL's {@code IS DISTINCT FROM}.
   */
  default String notEqual(String expression) {
    return expression + " IS DISTINCT FROM ?";
  }

  /**
   * One key of an {@code ORDER BY}: records lacking the value first when ascending, last when
   * descending, as standard SQL's {@code NULLS FIRST} and {@code NULLS LAST} say.
   */
  default String order(String expression, boolean descending) {
    return expression + (descending ? " DESC NULLS LAST" : " ASC NULLS FIRST");
  }
}
