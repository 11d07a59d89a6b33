package io.toa4j.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import javax.management.ObjectName;
import org.slf4j.Logger;

/**
 * The class-data archive of {@code toa run}, written by the first run after a build once it serves.
 *
 * <p>{@code bin/toa} starts a run with the archive when there is one newer than the jar; otherwise
 * it starts the JVM with {@code -XX:+RecordDynamicDumpInfo} and names the archive in the system
 * property {@value #PROPERTY}. Such a run, once it serves, asks its own JVM for a dynamic dump of
 * the classes loaded so far (the {@code VM.cds dynamic_dump} diagnostic command), on a thread of
 * its own, into a file of its own that it then renames into place: a later run maps those classes
 * instead of loading, verifying and linking them again.
 *
 * <p>The dump is made while the process runs, not at its exit: {@code -XX:ArchiveClassesAtExit}
 * links every loaded class before Java 17 runs the shutdown hooks, so a stop asked for went on
 * consuming meanwhile. A dump pauses the process once (the JVM at a safepoint, a second or two on
 * two cores), which a stop asked for then simply waits out. Only one run dumps at a time (a lock
 * beside the archive); a dump that fails or is cut short by a kill leaves no archive, and the next
 * run tries again. A lost archive costs start time, never correctness. Classes the runtime compiles
 * from a context's sources are loaded by a loader of its own and are never archived.
 */
final class RunArchive {
  /** The system property naming where the archive goes; set by {@code bin/toa}. */
  static final String PROPERTY = "toa.run.archive";

  /**
   * The system property naming the list of the classes loaded so far, as the JVM writes it with
   * {@code -XX:DumpLoadedClassList}; set by {@code bin/toa}.
   */
  static final String CLASSES = "toa.run.classes";

  private RunArchive() {}

  /** Starts the dump when this run was asked for one; returns at once. */
  static void writeWhenAsked(Logger log) {
    String named = System.getProperty(PROPERTY);
    if (named == null || named.isBlank()) return;
    Thread writer =
        new Thread(() -> write(Path.of(named).toAbsolutePath(), log), "toa-run-archive");
    writer.setDaemon(true);
    writer.setPriority(Thread.MIN_PRIORITY);
    writer.start();
  }

  /**
   * Standard output as it is, but for the line the JDK prints there when it dumps ({@code
   * System.out.println(" Dynamic dump to file ...")}): a run's output is its components' own.
   */
  private static PrintStream withoutDumpLine(PrintStream out) {
    return new PrintStream(out, true) {
      @Override
      public void println(String line) {
        if (line == null || !line.startsWith(" Dynamic dump to file ")) super.println(line);
      }
    };
  }

  /**
   * Links every class of the list that is not linked yet. Java 17's dump on demand leaves out the
   * classes loaded but not linked yet (most of them loaded to verify another), which a later run
   * would then load from their jars again; the dump at exit links them itself. Asking for a class's
   * constructors links it without initializing it. A class that cannot be found or linked is left
   * out of the archive, as it would have been anyway.
   */
  private static void link(Path list, Logger log) throws IOException {
    ClassLoader loader = ClassLoader.getSystemClassLoader();
    int linked = 0;
    for (String line : Files.readAllLines(list)) {
      if (line.isEmpty() || line.charAt(0) == '#' || line.charAt(0) == '@')
        continue; // notes, lambdas
      int end = line.indexOf(' ');
      String name = (end < 0 ? line : line.substring(0, end)).replace('/', '.');
      try {
        var unused = Class.forName(name, false, loader).getDeclaredConstructors(); // links it
        linked++;
      } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
        // not archived
      }
    }
    log.debug("Linked {} classes before the dump", linked);
  }

  private static void write(Path archive, Logger log) {
    Path lock = archive.resolveSibling(archive.getFileName() + ".lock");
    Path written =
        archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid());
    try (FileChannel channel =
            FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = channel.tryLock()) {
      if (held == null) return; // another run is writing it
      long started = System.nanoTime();
      String classes = System.getProperty(CLASSES);
      if (classes != null && !classes.isBlank()) link(Path.of(classes), log);
      PrintStream out = System.out;
      System.setOut(withoutDumpLine(out));
      try {
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "vmCds",
                new Object[] {new String[] {"dynamic_dump", written.toString()}},
                new String[] {String[].class.getName()});
      } finally {
        System.setOut(out);
      }
      if (!Files.isRegularFile(written) || Files.size(written) == 0) {
        log.debug("No class-data archive was written to {}", written);
        return;
      }
      Files.move(
          written, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      log.debug(
          "Class-data archive of toa run written to {} in {} ms",
          archive,
          (System.nanoTime() - started) / 1_000_000);
    } catch (Exception | LinkageError e) {
      // Start time only: the next run after this one starts as this one did, and tries again.
      log.debug("No class-data archive for toa run at {}: {}", archive, e.toString());
    } finally {
      String classes = System.getProperty(CLASSES);
      try {
        Files.deleteIfExists(written);
        if (classes != null && !classes.isBlank()) Files.deleteIfExists(Path.of(classes));
      } catch (IOException e) {
        log.debug("Could not remove {} or the class list: {}", written, e.toString());
      }
    }
  }
}
