package io.toa4j.runtime;

import io.toa4j.spi.Parked;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which parked messages an operator's bulk action takes ({@link Admin#parked(ParkedFilter)}, {@link
 * Admin#replay(ParkedFilter)}, {@link Admin#discard(ParkedFilter, String)}): those that match every
 * filter given, oldest first, at most {@code limit}.
 *
 * @param component the component the message is delivered to ({@code namespace.name}, or {@code
 *     name} in the default namespace)
 * @param operation the operation it is delivered to: its name, or {@code namespace.name.operation}
 * @param code the failure's code, such as {@code CONTRACT}
 * @param since parked at or after this instant
 * @param search a part of the parked message's id or of its message's id, in any case
 * @param limit how many at most, from 1 to {@value #MOST}
 */
public record ParkedFilter(
    Optional<String> component,
    Optional<String> operation,
    Optional<String> code,
    Optional<Instant> since,
    Optional<String> search,
    int limit) {
  /** The most messages one bulk action takes. */
  public static final int MOST = 10_000;

  public ParkedFilter {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(search, "search");
    if (limit < 1 || limit > MOST)
      throw new IllegalArgumentException(
          "the limit of parked messages is from 1 to " + MOST + "; got " + limit);
  }

  /** The filter without a search. */
  public ParkedFilter(
      Optional<String> component,
      Optional<String> operation,
      Optional<String> code,
      Optional<Instant> since,
      int limit) {
    this(component, operation, code, since, Optional.empty(), limit);
  }

  /** Every parked message, up to {@value #MOST}. */
  public static ParkedFilter all() {
    return new ParkedFilter(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), MOST);
  }

  /** The same filter, taking at most {@code limit}. */
  public ParkedFilter limit(int limit) {
    return new ParkedFilter(component, operation, code, since, search, limit);
  }

  /** Whether the parked message, delivered to {@code endpoint}, matches. */
  boolean matches(Parked parked, String endpoint) {
    if (search.isPresent() && !found(parked, search.get())) return false;
    return matches(endpoint, parked.code(), parked.at());
  }

  private static boolean found(Parked parked, String search) {
    String wanted = search.trim().toLowerCase(Locale.ROOT);
    return parked.id().toLowerCase(Locale.ROOT).contains(wanted)
        || parked.message().id().toLowerCase(Locale.ROOT).contains(wanted);
  }

  /**
   * Whether a message parked at {@code at} after failing with {@code failure}, delivered to {@code
   * endpoint}, matches.
   */
  private boolean matches(String endpoint, String failure, long at) {
    int dot = endpoint.lastIndexOf('.');
    String target = dot < 0 ? endpoint : endpoint.substring(0, dot);
    if (component.isPresent() && !Redelivery.label(component.get()).equals(target)) return false;
    if (operation.isPresent()
        && !endpoint.equals(operation.get())
        && !endpoint.endsWith("." + operation.get())) return false;
    if (code.isPresent() && !code.get().equalsIgnoreCase(failure)) return false;
    return since.isEmpty() || at >= since.get().toEpochMilli();
  }
}
