package io.toa4j.testkit.servers;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * Lines framed so that they stand out in a build's output, written to the process's own standard
 * error: the test runner sends what tests print to files, and these lines are for the person
 * watching the build.
 */
final class Banner {
  static final PrintStream STDERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true);
  private static final String RULE = "!".repeat(100);

  private Banner() {}

  static void print(PrintStream out, List<String> lines) {
    StringBuilder text = new StringBuilder(RULE).append('\n');
    for (String line : lines) text.append("!! ").append(line).append('\n');
    text.append(RULE).append('\n');
    synchronized (out) {
      out.print(text);
      out.flush();
    }
  }
}
