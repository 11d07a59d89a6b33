package io.toa4j.testkit.logs;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * What the process writes to standard error while it is open, which is where slf4j-simple (the
 * tests' logger) writes every line: it looks up {@code System.err} at each line, so lines of every
 * thread are caught. What is caught is also written to the standard error it replaced. Tests that
 * use it must not run beside each other in one JVM (the default).
 */
public final class CapturedLog implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream caught = new ByteArrayOutputStream();

  private CapturedLog() {
    OutputStream both =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (caught) {
              caught.write(b);
            }
            original.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (caught) {
              caught.write(b, off, len);
            }
            original.write(b, off, len);
          }

          @Override
          public void flush() {
            original.flush();
          }
        };
    System.setErr(new PrintStream(both, true, StandardCharsets.UTF_8));
  }

  /** Starts catching standard error. */
  public static CapturedLog start() {
    return new CapturedLog();
  }

  /** Every line caught so far. */
  public List<String> lines() {
    String text;
    synchronized (caught) {
      text = caught.toString(StandardCharsets.UTF_8);
    }
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\\R"));
  }

  /** The lines caught so far that contain every one of these texts. */
  public List<String> lines(String... containing) {
    return lines().stream()
        .filter(line -> Arrays.stream(containing).allMatch(line::contains))
        .toList();
  }

  /** The lines of stack traces caught so far: frames and their causes. */
  public List<String> stackTraces() {
    return lines().stream()
        .filter(
            line ->
                line.startsWith("\tat ")
                    || line.startsWith("Caused by: ")
                    || line.matches("\\s+\\.\\.\\. \\d+ more"))
        .toList();
  }

  /**
   * The lines of loggers whose name starts with {@code prefix} that came with a stack trace
   * (slf4j-simple's "[thread] LEVEL logger - message", then the trace's lines).
   */
  public List<String> withStackTraces(String prefix) {
    List<String> found = new java.util.ArrayList<>();
    String header = null;
    for (String line : lines()) {
      if (line.startsWith("[")) {
        header = line;
      } else if (line.startsWith("\tat ") && header != null) {
        int level = header.indexOf("] ");
        String[] words = level < 0 ? new String[0] : header.substring(level + 2).split(" ", 3);
        if (words.length >= 2 && words[1].startsWith(prefix)) found.add(header);
        header = null;
      }
    }
    return found;
  }

  /** Stops catching: standard error is what it was. */
  @Override
  public void close() {
    System.err.flush();
    System.setErr(original);
  }
}
