package io.toa4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the context a command acts on: the folder holding {@code context.toa.yaml}. */
final class ContextFolder {
  static final String FILE = "context.toa.yaml";

  private ContextFolder() {}

  /**
   * The folder given with {@code --context} (relative to {@code from}), else the nearest folder
   * from {@code from} upwards that holds {@code context.toa.yaml}.
   *
   * @throws CliProblem with the usage exit code when there is no such folder
   */
  static Path locate(Optional<Path> given, Path from) {
    Path start = from.toAbsolutePath().normalize();
    if (given.isPresent()) return checked(given.get(), start.resolve(given.get()).normalize());
    for (Path folder = start; folder != null; folder = folder.getParent()) {
      if (Files.isRegularFile(folder.resolve(FILE))) return folder;
    }
    throw new CliProblem(
        "toa: found no "
            + FILE
            + " in "
            + start
            + " or any folder above it; run toa inside a context's folder,"
            + " or name one with --context DIR",
        Toa.USAGE);
  }

  private static Path checked(Path given, Path folder) {
    if (!Files.isDirectory(folder)) {
      throw new CliProblem(
          "toa: --context "
              + given
              + ": there is no folder "
              + folder
              + "; give the folder that holds "
              + FILE,
          Toa.USAGE);
    }
    if (!Files.isRegularFile(folder.resolve(FILE))) {
      throw new CliProblem(
          "toa: --context "
              + given
              + ": "
              + folder
              + " has no "
              + FILE
              + "; give the folder that holds it",
          Toa.USAGE);
    }
    return folder;
  }
}
