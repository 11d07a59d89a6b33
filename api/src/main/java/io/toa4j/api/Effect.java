package io.toa4j.api;

/**
 * An operation that acts outside its component's state: calls other operations or the outside
 * world. The runtime writes nothing for it.
 *
 * <p>Implement one of the two methods: the one with a {@link Context} when the operation calls
 * other operations.
 *
 * @param <I> the input: the author's own record
 */
public interface Effect<I> {
  default Object effect(I input) {
    throw new UnsupportedOperationException(getClass().getName() + " implements no effect method");
  }

  default Object effect(I input, Context context) {
    return effect(input);
  }
}
