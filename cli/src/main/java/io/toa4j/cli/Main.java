package io.toa4j.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The {@code toa} command's entry: a {@code toa call} that a running {@code toa run} can answer is
 * relayed to it ({@link Relay}); every other command line runs here ({@link Toa}). Loads nothing
 * beyond java.base until it knows which, so the relayed call pays for no library.
 */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String... args) {
    OptionalInt relayed =
        Relay.attempt(List.of(args), Path.of("").toAbsolutePath(), System.out, System.err);
    if (relayed.isPresent()) System.exit(relayed.getAsInt());
    Toa.main(args);
  }
}
