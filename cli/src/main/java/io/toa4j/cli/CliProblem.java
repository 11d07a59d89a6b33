package io.toa4j.cli;

/**
 * Something the {@code toa} command itself cannot do, with the exit code it ends with. The message
 * is written for the person at the shell: what is wrong, where, and what to do.
 */
final class CliProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliProblem(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
