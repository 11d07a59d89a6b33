package io.toa4j.api;

/**
 * An operation that changes one record: the runtime reads it (or makes a blank one when the request
 * has no query), runs the operation, and commits the changed entry with a compare-and-swap on its
 * version.
 *
 * <p>Implement one of the two methods: the one with a {@link Context} when the operation calls
 * other operations. Return the entry (the caller gets the record), another value, or a {@link
 * Refusal}. Call {@link Entry#discard()} when the work is already done.
 *
 * @param <I> the input: the author's own record, shaped like the manifest's input schema
 * @param <E> the entity: the author's own subclass of {@link Entry}
 */
public interface Transition<I, E extends Entry> {
  default Object transition(I input, E entry) {
    throw new UnsupportedOperationException(
        getClass().getName() + " implements no transition method");
  }

  default Object transition(I input, E entry, Context context) {
    return transition(input, entry);
  }
}
