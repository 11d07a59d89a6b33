package io.toa4j.api;

import java.time.Instant;
import java.util.Objects;

/**
 * What an operation declared {@code external} learns of the attempts of its call before this one:
 * an attempt started and never ended, because its process died between calling the outside provider
 * and finishing, so whether the provider acted is unknown.
 *
 * @param key the stable key to reconcile with: the call's identity, the same on every delivery,
 *     which the attempt that died may have given the provider
 * @param unknown how many attempts of this call ended with their outcome unknown, this one not
 *     counted
 * @param first when the first of them started
 * @param last when the last of them started
 */
public record Attempt(String key, int unknown, Instant first, Instant last) {
  public Attempt {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(last, "last");
    if (unknown < 1)
      throw new IllegalArgumentException(
          "an attempt whose outcome is unknown counts at least one; got " + unknown);
  }
}
