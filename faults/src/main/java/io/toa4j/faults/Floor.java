package io.toa4j.faults;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The floor of a start, measured in the run itself: a JVM on the toa command's class path and
 * class-data archive (the run's archive, which every start of the run maps) that only loads and
 * links, initializing none, the classes of that archive, the classes a start loads, and exits. No
 * start can serve sooner than this on the same machine at the same moment: loading the libraries is
 * the part of a start no code of the runtime runs before. Measured now and then while the load and
 * the faults go on, so that the starts' times and the floor share the machine's state; the report
 * gives them side by side.
 *
 * <p>Its {@link #main} is the floor's JVM: given the list of classes, it loads and links each.
 */
final class Floor {
  /**
   * A class of the archive, as {@code -XX:+PrintSharedArchiveAndExit} lists it: number, name,
   * loader.
   */
  private static final Pattern LISTED =
      Pattern.compile("^\\s*\\d+: (\\S+) (?:boot|platform|app)_loader$");

  /**
   * The Java compiler's packages: the start that wrote the archive may have compiled the context's
   * component sources, which later starts find compiled in the context's cache and do not load.
   */
  private static final List<String> COMPILER =
      List.of("com.sun.tools.", "com.sun.source.", "javax.lang.model.", "javax.tools.");

  private final Path java;
  private final Path jar;
  private final Path archive;
  private final Path classes;
  private final ConcurrentLinkedQueue<Long> millis = new ConcurrentLinkedQueue<>();
  private volatile int count;

  /**
   * @param repository the repository, whose {@code cli/target} holds the toa command's jar and the
   *     run's archive ({@code bin/toa} names them so)
   * @param dir where the list of classes is written
   */
  Floor(Path repository, Path dir) {
    this.java = Path.of(System.getProperty("java.home"), "bin", "java");
    this.jar = repository.resolve("cli/target/toa4j-cli.jar");
    this.archive = repository.resolve("cli/target/toa4j-cli-run.jsa");
    this.classes = dir.resolve("floor.classes");
  }

  /**
   * Measures the floor once: the time from launching its JVM to the JVM's exit. Does nothing while
   * the run's archive is missing (the first start after a build writes it).
   */
  void measure() throws IOException, InterruptedException {
    if (!Files.isRegularFile(archive)) return;
    if (!Files.isRegularFile(classes)) list();
    long began = System.nanoTime();
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Xshare:auto",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-XX:SharedArchiveFile=" + archive,
                "-cp",
                jar + File.pathSeparator + classPathOfThis(),
                Floor.class.getName(),
                classes.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0)
      throw new IOException("the floor's JVM failed: " + out.strip());
    millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
  }

  /**
   * The classes of the run's archive, as its JVM lists them, without the lambdas' (made at run
   * time) and the compiler's.
   */
  private void list() throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-XX:SharedArchiveFile=" + archive,
                "-XX:+PrintSharedArchiveAndExit",
                "-jar",
                jar.toString())
            .redirectErrorStream(true)
            .start();
    List<String> names = new ArrayList<>();
    for (String line :
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
      Matcher m = LISTED.matcher(line);
      if (!m.matches() || m.group(1).contains("$$Lambda")) continue;
      String name = m.group(1);
      if (COMPILER.stream().noneMatch(name::startsWith)) names.add(name);
    }
    p.waitFor(120, TimeUnit.SECONDS);
    if (names.isEmpty()) throw new IOException("the run's archive " + archive + " lists no class");
    count = names.size();
    Files.write(classes, names);
  }

  /** Where this class was loaded from: the floor's JVM runs its {@link #main}. */
  private static String classPathOfThis() {
    try {
      return Path.of(Floor.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The floor's measures so far, in milliseconds, sorted. */
  List<Long> millis() {
    return millis.stream().sorted().toList();
  }

  /** How many classes the floor loads; 0 before the first measure. */
  int classes() {
    return count;
  }

  /** The floor's JVM: loads and links each class of the list, initializing none. */
  public static void main(String[] args) throws IOException {
    ClassLoader loader = ClassLoader.getSystemClassLoader();
    for (String name : Files.readAllLines(Path.of(args[0]))) {
      try {
        var unused = Class.forName(name, false, loader).getDeclaredConstructors(); // links it
      } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
        // a class of the JDK's archive this class path cannot reach, or one made at run time: a
        // start does not load it by name either
      }
    }
  }
}
