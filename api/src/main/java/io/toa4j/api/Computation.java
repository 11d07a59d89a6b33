package io.toa4j.api;

/**
 * An operation that answers from its input alone: no state, nothing written.
 *
 * <p>Implement one of the two methods: the one with a {@link Context} when the operation calls
 * other operations.
 *
 * @param <I> the input: the author's own record
 */
public interface Computation<I> {
  default Object computation(I input) {
    throw new UnsupportedOperationException(
        getClass().getName() + " implements no computation method");
  }

  default Object computation(I input, Context context) {
    return computation(input);
  }
}
