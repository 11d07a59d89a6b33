package io.toa4j.api;

/**
 * What an operation may reach while it runs: other components, the identity of the call it is
 * serving, and its component's configuration.
 *
 * <p>A context belongs to one run of one operation; it is not to be kept or shared.
 */
public interface Context {
  /** The component {@code namespace.name} (or {@code name} for the {@code default} namespace). */
  Remote remote(String component);

  /**
   * The identity of the call being served: the same on every delivery of it, so it can serve as a
   * key sent to an external provider that recognises repeats.
   */
  String identity();

  /**
   * For an operation declared {@code external}: the attempts of this call before this one whose
   * outcome is unknown (their process died between starting and finishing); empty for a first
   * attempt, after attempts that ended, and for every other operation. An operation that finds one
   * asks the provider what became of {@link Attempt#key()} before acting again.
   */
  default java.util.Optional<Attempt> previous() {
    return java.util.Optional.empty();
  }

  /**
   * The component's configuration, bound to {@code type} (a record, or any class that maps to the
   * values' schema): the manifest's defaults, under the context's {@code configuration} values,
   * under the environment's {@code TOA_CONFIGURATION_<NAMESPACE>_<NAME>}, with its secrets read —
   * as checked against the schema when the context started.
   *
   * @throws IllegalStateException when the component declares no configuration, or the values do
   *     not bind to {@code type}
   */
  <T> T configuration(Class<T> type);

  /**
   * The in-memory map a component that declares {@code state: ~} shares among its operations in
   * this process, as Toa's state extension gives a component's instance: empty when the process
   * starts, never written to the storage, not seen by other processes, lost with the process. Never
   * a place for what a repeated call must find: that is the entity's, or the inbox's.
   *
   * @throws IllegalStateException when the component declares no state
   */
  java.util.concurrent.ConcurrentMap<String, Object> state();

  /**
   * Now. In a continuous run ({@code continuity:} in the manifest) a step: the time of the attempt
   * that first asked, given back to every later attempt of the run.
   */
  default java.time.Instant now() {
    return java.time.Instant.now();
  }

  /**
   * A random number from 0 (included) to 1 (excluded). In a continuous run a step: the number the
   * attempt that first asked drew, given back to every later attempt.
   */
  default double random() {
    return java.util.concurrent.ThreadLocalRandom.current().nextDouble();
  }

  /**
   * A new random id, 32 hexadecimal digits, as the runtime mints record ids. In a continuous run a
   * step: the id the attempt that first asked minted, given back to every later attempt.
   */
  default String id() {
    byte[] bytes = new byte[16];
    new java.security.SecureRandom().nextBytes(bytes);
    return java.util.HexFormat.of().formatHex(bytes);
  }

  /**
   * Work outside the system, such as a courier's API, as one step. In a continuous run the answer
   * is journaled before the run goes on, as JSON read back as {@code type}; a later attempt of the
   * run gets the recorded answer and does not do the work again; work that throws records nothing
   * and runs again on the next attempt. Elsewhere the work simply runs.
   *
   * @param name what the step is, such as {@code book courier}: steps are matched by their name and
   *     their occurrence among steps of that name, not by position
   * @param type what the answer is read back as (a record, a String, a Map, ...)
   * @throws Failure {@code UNRECORDABLE} in a continuous run when the answer cannot be written as
   *     JSON or is larger than the journal takes
   */
  default <T> T step(String name, Class<T> type, java.util.function.Supplier<T> work) {
    return work.get();
  }
}
