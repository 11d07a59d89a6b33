package io.toa4j.runtime;

import io.toa4j.api.ToaException;

/**
 * A context that cannot start: a component's code does not compile, does not fit its manifest, or
 * its storage cannot be opened. The message says what, where, and what to do. Nothing was started.
 */
public final class StartupException extends ToaException {
  private static final long serialVersionUID = 1L;

  public StartupException(String message) {
    super(message);
  }

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
