package io.toa4j.tck.storage;

import static io.toa4j.tck.storage.Fixtures.JSON;
import static io.toa4j.tck.storage.Fixtures.id;
import static io.toa4j.tck.storage.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Criterion;
import io.toa4j.spi.Criterion.Operator;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Selection.Field;
import io.toa4j.spi.Selection.Kind;
import io.toa4j.spi.Selection.Order;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@link Store#find(Selection)} answers, the same on every storage: criteria over the state
 * and the system properties, comparisons by kind (texts by code point, numbers by value), a missing
 * property meeting only "not equal" and "out", the order with missing values first ascending and
 * last descending, ties in creation order, and the window.
 */
public interface SelectionContract {
  Storage open();

  String component(String name);

  Field NAME = new Field("name", Kind.TEXT);
  Field RANK = new Field("rank", Kind.NUMBER);
  Field HOT = new Field("hot", Kind.BOOLEAN);

  /**
   * Five pots, created in id order: 1 "ash" rank 5 hot, 2 "Birch" rank 2.5 cold, 3 "cedar" rank 5
   * (no hot), 4 "élan" rank 10 cold, 5 with no name and no rank, hot; pot 2 written twice.
   */
  private Store pots(Storage storage) {
    Store store = storage.store(component("pots"));
    pot(store, 1, state().put("name", "ash").put("rank", 5).put("hot", true));
    pot(store, 2, state().put("name", "Birch").put("rank", 2.5).put("hot", false));
    pot(store, 3, state().put("name", "cedar").put("rank", 5.0));
    pot(store, 4, state().put("name", "élan").put("rank", 10).put("hot", false));
    pot(store, 5, state().put("hot", true));
    StoredRecord second =
        new StoredRecord(
            id(2), 2, 2, 60, json(state().put("name", "Birch").put("rank", 2.5).put("hot", false)));
    assertThat(store.commit(new Write(1, second))).isEqualTo(io.toa4j.spi.Outcome.COMMITTED);
    return store;
  }

  private static ObjectNode state() {
    return JSON.createObjectNode();
  }

  private static void pot(Store store, long n, ObjectNode state) {
    store.commit(new Write(0, new StoredRecord(id(n), 1, n, n, json(state))));
  }

  private static List<Long> ids(List<StoredRecord> records) {
    return records.stream().map(r -> Long.parseLong(r.id(), 16)).toList();
  }

  private static Selection where(Criterion criterion) {
    return new Selection(Optional.of(criterion), List.of(), 100, 0);
  }

  private static Criterion is(Field field, Operator operator, Object... values) {
    return new Criterion.Compare(field, operator, List.of(values));
  }

  @Test
  default void find_comparesTextsByCodePoint() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      assertThat(ids(store.find(where(is(NAME, Operator.EQ, "ash"))))).containsExactly(1L);
      assertThat(ids(store.find(where(is(NAME, Operator.EQ, "Ash"))))).isEmpty();
      // "B" < "a" < "c" < "é" by code point, whatever the database's collation
      assertThat(ids(store.find(where(is(NAME, Operator.LT, "a"))))).containsExactly(2L);
      assertThat(ids(store.find(where(is(NAME, Operator.GT, "d"))))).containsExactly(4L);
      assertThat(ids(store.find(where(is(NAME, Operator.GE, "cedar"))))).containsExactly(3L, 4L);
    }
  }

  @Test
  default void find_comparesNumbersByValue() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      assertThat(ids(store.find(where(is(RANK, Operator.EQ, 5L))))).containsExactly(1L, 3L);
      assertThat(ids(store.find(where(is(RANK, Operator.EQ, new BigDecimal("5.0"))))))
          .containsExactly(1L, 3L);
      assertThat(ids(store.find(where(is(RANK, Operator.LT, 5L))))).containsExactly(2L);
      assertThat(ids(store.find(where(is(RANK, Operator.LE, 5L))))).containsExactly(1L, 2L, 3L);
      assertThat(ids(store.find(where(is(RANK, Operator.GT, 2.5))))).containsExactly(1L, 3L, 4L);
      // 10 > 9 as numbers, where as texts "10" < "9"
      assertThat(ids(store.find(where(is(RANK, Operator.GE, 9L))))).containsExactly(4L);
    }
  }

  @Test
  default void find_aMissingPropertyMeetsOnlyNotEqualAndOut() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      assertThat(ids(store.find(where(is(HOT, Operator.EQ, true))))).containsExactly(1L, 5L);
      assertThat(ids(store.find(where(is(HOT, Operator.NE, true))))).containsExactly(2L, 3L, 4L);
      assertThat(ids(store.find(where(is(RANK, Operator.IN, 5L, 10L)))))
          .containsExactly(1L, 3L, 4L);
      assertThat(ids(store.find(where(is(RANK, Operator.OUT, 5L, 10L))))).containsExactly(2L, 5L);
      assertThat(ids(store.find(where(is(NAME, Operator.LT, "zzz"))))).doesNotContain(5L);
    }
  }

  @Test
  default void find_joinsCriteriaWithAllAndAny() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      Criterion hotOrTen =
          new Criterion.Any(List.of(is(HOT, Operator.EQ, true), is(RANK, Operator.EQ, 10L)));
      assertThat(ids(store.find(where(hotOrTen)))).containsExactly(1L, 4L, 5L);
      Criterion named =
          new Criterion.All(
              List.of(hotOrTen, is(NAME, Operator.NE, "ash"), is(NAME, Operator.OUT, "x")));
      assertThat(ids(store.find(where(named)))).containsExactly(4L, 5L);
    }
  }

  @Test
  default void find_readsTheSystemPropertiesFromTheirColumns() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      assertThat(ids(store.find(where(is(new Field("VERSION", Kind.NUMBER), Operator.EQ, 2L)))))
          .containsExactly(2L);
      assertThat(ids(store.find(where(is(new Field("id", Kind.TEXT), Operator.EQ, id(3))))))
          .containsExactly(3L);
      assertThat(ids(store.find(where(is(new Field("CREATED", Kind.NUMBER), Operator.GT, 3L)))))
          .containsExactly(4L, 5L);
      assertThat(ids(store.find(where(is(new Field("UPDATED", Kind.NUMBER), Operator.GT, 5L)))))
          .containsExactly(2L);
    }
  }

  @Test
  default void find_sortsWithMissingValuesFirstAscendingAndLastDescending_tiesInCreationOrder() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      Selection ascending =
          new Selection(Optional.empty(), List.of(new Order(RANK, false)), 100, 0);
      assertThat(ids(store.find(ascending))).containsExactly(5L, 2L, 1L, 3L, 4L);
      Selection descending =
          new Selection(
              Optional.empty(), List.of(new Order(RANK, true), new Order(NAME, true)), 100, 0);
      assertThat(ids(store.find(descending))).containsExactly(4L, 3L, 1L, 2L, 5L);
      Selection byName = new Selection(Optional.empty(), List.of(new Order(NAME, false)), 100, 0);
      assertThat(ids(store.find(byName))).containsExactly(5L, 2L, 1L, 3L, 4L);
    }
  }

  @Test
  default void find_answersTheWindowOfTheSelection() {
    try (Storage storage = open()) {
      Store store = pots(storage);
      Selection hot =
          new Selection(
              Optional.of(is(RANK, Operator.GE, 2L)), List.of(new Order(RANK, true)), 2, 1);
      assertThat(ids(store.find(hot))).containsExactly(1L, 3L);
      assertThat(ids(store.find(new Selection(Optional.empty(), List.of(), 2, 4))))
          .containsExactly(5L);
      assertThat(store.find(new Selection(Optional.empty(), List.of(), 0, 0))).isEmpty();
    }
  }
}
