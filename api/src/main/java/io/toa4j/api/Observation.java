package io.toa4j.api;

/**
 * An operation that reads one record and answers from it, changing nothing. When the query finds no
 * record, the caller gets an empty output and the operation does not run.
 *
 * <p>Implement one of the two methods: the one with a {@link Context} when the operation calls
 * other operations.
 *
 * @param <I> the input: the author's own record, or {@link Void} when the operation takes none
 * @param <E> the entity: the author's own subclass of {@link Entry}
 */
public interface Observation<I, E extends Entry> {
  default Object observation(I input, E entry) {
    throw new UnsupportedOperationException(
        getClass().getName() + " implements no observation method");
  }

  default Object observation(I input, E entry, Context context) {
    return observation(input, entry);
  }
}
