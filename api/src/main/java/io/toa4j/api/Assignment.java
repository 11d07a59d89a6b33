package io.toa4j.api;

import java.util.Map;

/**
 * An operation that patches one existing record without comparing versions: it fills a changeset
 * (property name to new value), which the runtime applies to the record and commits. The caller
 * gets the record after the change unless the operation returns something else.
 *
 * <p>Implement one of the two methods: the one with a {@link Context} when the operation calls
 * other operations.
 *
 * @param <I> the input: the author's own record
 */
public interface Assignment<I> {
  default Object assignment(I input, Map<String, Object> changeset) {
    throw new UnsupportedOperationException(
        getClass().getName() + " implements no assignment method");
  }

  default Object assignment(I input, Map<String, Object> changeset, Context context) {
    return assignment(input, changeset);
  }
}
