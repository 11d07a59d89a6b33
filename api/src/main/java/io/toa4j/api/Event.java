package io.toa4j.api;

/**
 * An event a component announces: a class in its {@code events/} folder, named after the event
 * ({@code events/Paid.java} for {@code paid}). For every committed write of the component, the
 * event occurs when {@link #condition} holds, and carries {@link #payload}.
 *
 * <p>Both run after the commit, possibly more than once for one write (a re-swept outbox entry), so
 * they must depend on the change alone.
 *
 * @param <E> the component's entity class
 */
public interface Event<E extends Entry> {
  /** Whether the write is an occurrence of this event; every write is by default. */
  default boolean condition(Change<E> change) {
    return true;
  }

  /** What the event carries: plain values, a record, or the state itself (the default). */
  default Object payload(Change<E> change) {
    return change.state();
  }
}
