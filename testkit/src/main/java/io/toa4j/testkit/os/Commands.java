package io.toa4j.testkit.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a program of the machine to its end, within a bound, as a test's set-up needs it. */
public final class Commands {
  private Commands() {}

  /**
   * Runs the command and waits for it.
   *
   * @param missing what to check when the program cannot be started, such as {@code is iproute2
   *     installed?}
   * @return what it printed, standard error included
   * @throws IllegalStateException when it fails, with what it printed, or does not end within the
   *     timeout (it is killed then)
   */
  public static String run(List<String> command, Duration timeout, String missing) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command) + " did not finish in " + timeout.toSeconds() + " s");
      }
      if (p.exitValue() != 0)
        throw new IllegalStateException(
            String.join(" ", command) + " failed (" + p.exitValue() + "): " + out.strip());
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run " + command.get(0) + " (" + missing + ")", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + String.join(" ", command), e);
    }
  }
}
