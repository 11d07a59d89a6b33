package io.toa4j.manifest;

import java.util.OptionalLong;

/**
 * An operation's {@code once} declaration.
 *
 * @param seconds the retention the operation states ({@code once: <seconds>}, at least 600); empty
 *     for {@code once: true}, which takes the context's {@code inbox.retention}
 */
public record Once(OptionalLong seconds) {
  /** The smallest retention accepted, in seconds. */
  public static final long MINIMUM_SECONDS = 600;
}
