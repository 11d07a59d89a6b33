package io.toa4j.http;

import java.time.Duration;

/**
 * A request the gateway refuses before or after calling: a status, a stable code, a message, and
 * how long to hold the answer before sending it (zero but for a wrong password, see {@link
 * Guesses}).
 */
final class Problem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;
  final String code;
  private Duration hold = Duration.ZERO;

  Problem(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /** This problem, answered after {@code hold}. */
  Problem held(Duration hold) {
    this.hold = hold;
    return this;
  }

  Duration hold() {
    return hold;
  }
}
