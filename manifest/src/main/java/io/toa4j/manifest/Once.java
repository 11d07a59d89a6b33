package io.toa4j.manifest;

import java.util.OptionalLong;

/**
 * An operation's {@code once} declaration.
 *
 * @param seconds how long a call's answer is given to a repeat ({@code once: <seconds>} or {@code
 *     once: { retention: <seconds> }}, at least 600); empty for the context's {@code
 *     inbox.retention}
 * @param rememberSeconds how long the record that a call was answered is kept, so that a repeat
 *     after the answer's window is told so rather than run ({@code once: { remember: <seconds> }});
 *     empty for the context's {@code inbox.remember}. Never shorter than the answer's window.
 */
public record Once(OptionalLong seconds, OptionalLong rememberSeconds) {
  /** The smallest retention accepted, in seconds. */
  public static final long MINIMUM_SECONDS = 600;

  /** A declaration that states at most the answer's window. */
  public Once(OptionalLong seconds) {
    this(seconds, OptionalLong.empty());
  }
}
