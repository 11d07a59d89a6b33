package io.toa4j.spi;

/**
 * An engine's server could not be reached: nothing answered, the connection was refused or cut, or
 * the server said it is starting or shutting down. Opening the same engine later may succeed, so a
 * starting process may wait and try again. Anything else that stops an engine from opening (a bad
 * URL, refused credentials, a missing database) is another {@link IllegalStateException} or {@link
 * IllegalArgumentException}: trying again would not help.
 */
public class UnreachableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public UnreachableException(String message) {
    super(message);
  }

  public UnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
