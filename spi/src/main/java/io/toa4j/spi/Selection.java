package io.toa4j.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which records a {@link Store#find(Selection) find} answers, and in which order: those whose state
 * the criteria match (all of them without criteria), sorted by {@code sort} and then in the order
 * they were created (ties by id), skipping {@code omit} and answering at most {@code limit}.
 *
 * @param criteria the condition a record must meet; empty: every record
 * @param sort the order, most significant first; records equal on all of it keep creation order
 */
public record Selection(Optional<Criterion> criteria, List<Order> sort, long limit, long omit) {
  public Selection {
    Objects.requireNonNull(criteria, "criteria");
    sort = List.copyOf(sort);
    if (limit < 0 || omit < 0)
      throw new IllegalArgumentException(
          "a selection's limit and omit are 0 or more; got " + limit + " and " + omit);
  }

  /** Whether it selects every record in creation order, as {@link #page} does. */
  public boolean plain() {
    return criteria.isEmpty() && sort.isEmpty();
  }

  /** Every record in creation order: the window of {@code limit} after {@code omit}. */
  public static Selection page(long limit, long omit) {
    return new Selection(Optional.empty(), List.of(), limit, omit);
  }

  /**
   * A property a selection compares or sorts by: an entity property at the top level of a record's
   * state, or one of the properties every record has ({@code id}, {@code VERSION}, {@code CREATED},
   * {@code UPDATED}), which a store keeps in columns of their own.
   *
   * @param kind what its values are; a store compares and sorts by it (texts by their code points,
   *     numbers by value, false before true), and never meets a value of another kind there: a
   *     state fits its entity's schema
   */
  public record Field(String name, Kind kind) {
    public Field {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
    }

    /**
     * The column a store keeps this property in, for {@code id}, {@code VERSION}, {@code CREATED}
     * and {@code UPDATED} ({@code id}, {@code version}, {@code created}, {@code updated}); empty
     * for a property of the state.
     */
    public Optional<String> column() {
      return switch (name) {
        case "id" -> Optional.of("id");
        case "VERSION" -> Optional.of("version");
        case "CREATED" -> Optional.of("created");
        case "UPDATED" -> Optional.of("updated");
        default -> Optional.empty();
      };
    }
  }

  /** What a field's values are. */
  public enum Kind {
    TEXT,
    NUMBER,
    BOOLEAN
  }

  /**
   * One step of an order: a field, ascending or descending; a record without the property comes
   * first ascending, last descending.
   */
  public record Order(Field field, boolean descending) {
    public Order {
      Objects.requireNonNull(field, "field");
    }
  }
}
