package io.toa4j.cli;

import io.toa4j.api.Failure;
import io.toa4j.api.ToaException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns what a command threw into one message on stderr and an exit code; never a stack trace,
 * because every exception that reaches here was already written for the operator.
 */
final class Errors implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    PrintWriter err = command.getErr();
    int code = Toa.FAILED;
    if (e instanceof CliProblem problem) {
      err.println(problem.getMessage());
      code = problem.exitCode();
    } else if (e instanceof Failure failure) {
      err.println("failed (" + failure.code() + "): " + failure.getMessage());
    } else if (e instanceof ToaException written) {
      err.println(written.getMessage()); // a manifest's, a start's: names the file, path or way out
    } else {
      err.println("failed: " + describe(e));
    }
    err.flush();
    return code;
  }

  /** The exception and its causes in one line: {@code Type: message; caused by Type: message}. */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder();
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < 8; t = t.getCause()) { // bounded: causes can loop
      if (t != e) text.append("; caused by ");
      text.append(t.getClass().getSimpleName());
      if (t.getMessage() != null) text.append(": ").append(t.getMessage());
    }
    return text.toString();
  }
}
