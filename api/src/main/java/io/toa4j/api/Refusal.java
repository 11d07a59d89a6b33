package io.toa4j.api;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An answer that the request cannot be done: a code the operation declares under {@code errors},
 * and an optional cause made of plain values (maps, lists, strings, numbers, booleans).
 *
 * <p>Returned by an operation, never thrown. Nothing is committed for a refusal. Over HTTP it is a
 * 422 with {@code { code, cause }}; behind a receiver or a task it ends the work quietly.
 */
public record Refusal(String code, Optional<Object> cause) {
  private static final Pattern CODE = Pattern.compile("[A-Za-z0-9_]{1,64}");

  public Refusal {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(cause, "cause");
    if (!CODE.matcher(code).matches()) {
      throw new IllegalArgumentException(
          "A refusal code is 1 to 64 letters, digits or underscores, such as INSUFFICIENT_FUNDS; got '"
              + code
              + "'");
    }
  }

  /** A refusal with a code and no cause. */
  public static Refusal of(String code) {
    return new Refusal(code, Optional.empty());
  }

  /** A refusal with a code and a cause of plain values. */
  public static Refusal of(String code, Object cause) {
    return new Refusal(code, Optional.of(Objects.requireNonNull(cause, "cause")));
  }
}
