package io.toa4j.api;

/**
 * What an operation may reach while it runs: other components, and the identity of the call it
 * is serving.
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
}
