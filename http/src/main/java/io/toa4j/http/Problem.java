package io.toa4j.http;

/** A request the gateway refuses before or after calling: a status, a stable code, a message. */
final class Problem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final int status;
  final String code;

  Problem(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }
}
