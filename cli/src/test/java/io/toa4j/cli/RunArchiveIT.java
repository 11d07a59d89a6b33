package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's class-data archive ({@link RunArchive}), with the JVM flags {@code bin/toa} gives: a
 * run asked for one writes it once it serves, whole and under its final name, and a later run maps
 * the classes from it. Here the archive goes to a folder of the test's own, not next to the jar.
 */
class RunArchiveIT {
  private static final Path JAR = ToaShell.REPOSITORY.resolve("cli/target/toa4j-cli.jar");
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  @TempDir Path temp;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : started) {
      process.destroyForcibly();
      process.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void aRunAskedForTheArchive_writesItOnceItServes_andTheNextRunMapsItsClassesFromIt()
      throws Exception {
    Path shop = ToaShell.copyOfShop(temp);
    Path archive = temp.resolve("archives/run.jsa");
    Files.createDirectories(archive.getParent());

    Path classes = temp.resolve("archives/run.jsa.classes");
    Process first =
        start(
            shop,
            "first",
            "-XX:+RecordDynamicDumpInfo",
            "-XX:DumpLoadedClassList=" + classes,
            "-D" + RunArchive.PROPERTY + "=" + archive,
            "-D" + RunArchive.CLASSES + "=" + classes);
    await().atMost(Duration.ofSeconds(90)).until(() -> serves(shop, first, "first"));
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              if (!first.isAlive())
                throw new AssertionError(
                    "the run ended:\n" + ToaShell.read(temp.resolve("first.err")));
              return Files.isRegularFile(archive);
            });
    assertThat(Files.size(archive)).isPositive();
    first.destroy(); // SIGTERM: drained and stopped as always
    assertThat(first.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(first.exitValue()).as("%s", ToaShell.read(temp.resolve("first.err"))).isZero();
    assertThat(ToaShell.read(temp.resolve("first.out")))
        .as("the JDK's line about the dump stays off the run's output")
        .isEmpty();
    try (Stream<Path> files = Files.list(archive.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as(
              "the file the dump was written to is renamed into place, none left under a pid; the class list is removed")
          .containsExactlyInAnyOrder("run.jsa", "run.jsa.lock");
    }

    // -Xshare:on: the JVM refuses to start rather than run without an archive it cannot map
    Process second =
        start(
            shop,
            "second",
            "-XX:SharedArchiveFile=" + archive,
            "-Xshare:on",
            "-Xlog:class+load=info:file=" + temp.resolve("classes.log"));
    await().atMost(Duration.ofSeconds(90)).until(() -> serves(shop, second, "second"));
    List<String> loaded = Files.readAllLines(temp.resolve("classes.log"));
    assertThat(loaded)
        .anyMatch(
            line -> line.contains("io.toa4j.cli.RunCommand source: shared objects file (top)"))
        .anyMatch(line -> line.contains("io.toa4j.runtime.Toa source: shared objects file (top)"));
    // Java 17's dump on demand leaves out what is loaded but not linked: about 190 of Jackson's
    // classes at a run's start, unless they are linked for it from the class list
    assertThat(loaded)
        .as(
            "Jackson's classes come from the archive, but for a few the first run had not loaded yet")
        .filteredOn(line -> line.contains("jackson-databind") && line.contains(".jar"))
        .hasSizeLessThan(20);
    second.destroy();
    assertThat(second.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(second.exitValue()).isZero();
  }

  private Process start(Path shop, String name, String... jvm) throws IOException {
    List<String> command = new ArrayList<>(List.of(JAVA, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
    command.addAll(List.of(jvm));
    command.addAll(List.of("-jar", JAR.toString(), "run", "--http", "127.0.0.1:0"));
    Process process =
        new ProcessBuilder(command)
            .directory(shop.toFile())
            .redirectOutput(temp.resolve(name + ".out").toFile())
            .redirectError(temp.resolve(name + ".err").toFile())
            .start();
    started.add(process);
    return process;
  }

  private boolean serves(Path shop, Process run, String name) {
    if (!run.isAlive())
      throw new AssertionError(
          "toa run ended with "
              + run.exitValue()
              + ":\n"
              + ToaShell.read(temp.resolve(name + ".err")));
    return RunFile.read(RunFile.path(shop)).filter(r -> r.pid() == run.pid()).isPresent()
        && ToaShell.read(temp.resolve(name + ".err")).contains("is served by pid " + run.pid());
  }
}
