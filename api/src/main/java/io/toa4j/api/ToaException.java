package io.toa4j.api;

/**
 * The root of what toa4j throws to the code that uses it: a call that failed ({@link Failure}, with
 * its code), a manifest that does not fit, a context that cannot start, an identity that cannot be
 * made. Catching it catches every one of them, and none of the JDK's or a library's own; each
 * subclass says what it carries. Unchecked, as every failure here is.
 */
public abstract class ToaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected ToaException(String message) {
    super(message);
  }

  protected ToaException(String message, Throwable cause) {
    super(message, cause);
  }
}
