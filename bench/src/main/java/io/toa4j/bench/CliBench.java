package io.toa4j.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The command line's wall times against the floor any Java command pays: {@code java -version},
 * measured in the same run, alternating with the command so both meet the same machine.
 *
 * <ul>
 *   <li>{@code toa call} against a running {@code toa run} on a copy of the shop (target 300 ms);
 *   <li>{@code toa call} cold: no {@code toa run}, the context booted for the one call, its
 *       component classes already compiled (target 1 s);
 *   <li>{@code toa run} from its start until it serves calls, as its {@code .toa/run.json} says
 *       (target 1 s).
 * </ul>
 *
 * <p>Each command is {@code bin/toa} as a user runs it, so the class-data archives it keeps next to
 * the jar count: the first command of each kind after a build writes its archive (a call relayed to
 * {@code toa run}, any other short command, a run once it serves), and is left out.
 *
 * <p>Usage: {@code bench/run cli [--rounds N]} (default 10).
 */
public final class CliBench {
  private static final String OBSERVE = "billing.wallets.observe";
  private static final String REQUEST = "{ query: { id: 8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f } }";

  private CliBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = Figures.intArg(args, "--rounds", 10);
    Path root = Path.of("").toAbsolutePath();
    Path toa = root.resolve("bin/toa");
    Path shop = Files.createTempDirectory("toa-cli-bench");
    try {
      copy(root.resolve("examples/shop"), shop);
      run(
          shop,
          toa.toString(),
          "call",
          OBSERVE,
          REQUEST); // writes the archive, compiles the components
      List<Double> floor = new ArrayList<>();
      List<Double> cold = new ArrayList<>();
      for (int i = 0; i < rounds; i++) {
        floor.add(run(shop, "java", "-version"));
        cold.add(run(shop, toa.toString(), "call", OBSERVE, REQUEST));
      }
      List<Double> serving = new ArrayList<>();
      List<Double> warm = new ArrayList<>();
      // the first run after a build writes the run's archive once it serves: left out
      Path jar = root.resolve("cli/target/toa4j-cli.jar");
      Path archive = root.resolve("cli/target/toa4j-cli-run.jsa");
      // every run counts its start; the first measured one also answers the rounds of calls
      for (int i = -1; i < rounds; i++) {
        long start = System.nanoTime();
        Process run =
            new ProcessBuilder(toa.toString(), "run")
                .directory(shop.toFile())
                .redirectErrorStream(true)
                .redirectOutput(shop.resolve("run.log").toFile())
                .start();
        try {
          // toa run writes run.json once its channel accepts calls
          Path file = shop.resolve(".toa/run.json");
          while (!Files.exists(file)) {
            if (!run.isAlive())
              throw new IllegalStateException("toa run ended: see " + shop.resolve("run.log"));
            Thread.sleep(2);
          }
          if (i < 0) {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!(Files.exists(archive)
                && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar))
                    > 0)) {
              if (!run.isAlive() || System.nanoTime() > deadline)
                throw new IllegalStateException(
                    "toa run wrote no archive: see " + shop.resolve("run.log"));
              Thread.sleep(20);
            }
            continue;
          }
          serving.add((System.nanoTime() - start) / 1e6);
          if (run(shop, toa.toString(), "call", OBSERVE, REQUEST) < 0)
            throw new IllegalStateException("toa run does not answer a call");
          for (int j = 0; j < (i == 0 ? rounds : 0); j++) {
            floor.add(run(shop, "java", "-version"));
            warm.add(run(shop, toa.toString(), "call", OBSERVE, REQUEST));
          }
        } finally {
          run.destroy();
          run.waitFor();
        }
      }
      double javaVersion = Figures.median(floor);
      System.out.printf("java -version (the floor):           median %6.0f ms%n", javaVersion);
      report("toa call, against toa run", warm, javaVersion, 300);
      report("toa call, cold (no toa run)", cold, javaVersion, 1000);
      report("toa run, start to serving a call", serving, javaVersion, 1000);
    } finally {
      delete(shop);
    }
  }

  private static void report(String what, List<Double> millis, double floor, int target) {
    double median = Figures.median(millis);
    double worst = millis.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    System.out.printf(
        "%-36s median %6.0f ms, worst %6.0f ms, %4.1fx java -version (target %d ms)%n",
        what + ":", median, worst, median / floor, target);
  }

  /** Runs a command to its end: its wall time in milliseconds, or -1 when it exits other than 0. */
  private static double run(Path directory, String... command)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    int status = process.waitFor();
    double millis = (System.nanoTime() - start) / 1e6;
    return status == 0 ? millis : -1;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files.sorted()::iterator) {
        Path relative = from.relativize(source);
        if (relative.toString().startsWith(".toa")) continue;
        Path target = to.resolve(relative.toString());
        if (Files.isDirectory(source)) Files.createDirectories(target);
        else Files.copy(source, target);
      }
    }
  }

  private static void delete(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
