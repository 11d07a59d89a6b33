package io.toa4j.test;

import io.toa4j.test.core.Values;
import java.util.Map;
import java.util.TreeSet;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on something with named properties — a record, a reply, an event's payload — whose
 * values are compared as JSON values: {@code has("balance", 5000)} holds for a stored 5000.
 *
 * @param <SELF> the assertion's own type, for chaining
 * @param <ACTUAL> what is asserted on
 */
public abstract class PropertiesAssert<SELF extends PropertiesAssert<SELF, ACTUAL>, ACTUAL>
    extends AbstractAssert<SELF, ACTUAL> {
  protected PropertiesAssert(ACTUAL actual, Class<?> selfType) {
    super(actual, selfType);
  }

  /** The properties of what is asserted on, by name. */
  protected abstract Map<String, Object> properties();

  /** What is asserted on, for a failure's message: {@code record billing.wallets 8d1f…}. */
  protected abstract String what();

  /** Verifies that the property is there with this value (numbers compared by value). */
  public SELF has(String property, Object expected) {
    isNotNull();
    Map<String, Object> properties = properties();
    if (!properties.containsKey(property)) {
      failWithMessage(
          "Expected %s to have %s = %s, but it has no property '%s'; it has %s",
          what(), property, expected, property, new TreeSet<>(properties.keySet()));
    }
    Object value = properties.get(property);
    if (!Values.same(value, expected)) {
      failWithMessage(
          "Expected %s to have %s = %s, but it has %s = %s",
          what(), property, expected, property, value);
    }
    return myself;
  }

  /** Verifies that every property of the map is there with its value. */
  public SELF hasAll(Map<String, ?> expected) {
    expected.forEach(this::has);
    return myself;
  }

  /** Verifies that the property is absent (or null). */
  public SELF doesNotHave(String property) {
    isNotNull();
    Object value = properties().get(property);
    if (value != null)
      failWithMessage(
          "Expected %s to have no %s, but it has %s = %s", what(), property, property, value);
    return myself;
  }
}
