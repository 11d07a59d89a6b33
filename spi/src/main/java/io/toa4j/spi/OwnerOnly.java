package io.toa4j.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Files and folders under a context's {@code .toa/} that only their owner may reach: a file is
 * created 0600 and a folder 0700, with the mode given at creation (never changed after writing), so
 * no other local user can read the records, the secrets or the compiled code in the window between
 * creating and restricting.
 *
 * <p>What exists already is checked, not changed: a file or folder that grants anything to its
 * group or to others is reported once per path and process, with its mode and the {@code chmod}
 * that fixes it, through the caller's {@code warn} (adapters log it as they log everything else).
 * On a file system without POSIX permissions everything here is created as usual and nothing is
 * reported. Thread-safe.
 */
public final class OwnerOnly {
  /** {@code rw-------}: what a file under {@code .toa/} is created with. */
  public static final Set<PosixFilePermission> FILE =
      Set.copyOf(PosixFilePermissions.fromString("rw-------"));

  /** {@code rwx------}: what a folder under {@code .toa/} is created with. */
  public static final Set<PosixFilePermission> FOLDER =
      Set.copyOf(PosixFilePermissions.fromString("rwx------"));

  private static final Set<PosixFilePermission> OWNER =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);
  private static final Set<Path> REPORTED = ConcurrentHashMap.newKeySet();

  private OwnerOnly() {}

  /**
   * The folder, made 0700 with every missing parent, or checked when it exists.
   *
   * @throws UncheckedIOException when it cannot be made, naming it and why
   */
  public static Path folder(Path folder, Consumer<String> warn) {
    if (Files.isDirectory(folder)) {
      check(folder, warn);
      return folder;
    }
    try {
      return Files.createDirectories(folder, folderAttributes(folder));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the folder " + folder + ": " + e, e);
    }
  }

  /**
   * The file, created empty with 0600 when it does not exist (atomically: another process creating
   * it at the same moment wins and its file is kept), or checked when it does.
   *
   * @throws UncheckedIOException when it cannot be made, naming it and why
   */
  public static Path file(Path file, Consumer<String> warn) {
    try {
      return Files.createFile(file, fileAttributes(file));
    } catch (FileAlreadyExistsException e) {
      check(file, warn);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the file " + file + ": " + e, e);
    }
  }

  /** What creates a file 0600 where the file system has POSIX permissions; nothing elsewhere. */
  public static FileAttribute<?>[] fileAttributes(Path where) {
    return posix(where)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new FileAttribute<?>[0];
  }

  /** What creates a folder 0700 where the file system has POSIX permissions; nothing elsewhere. */
  public static FileAttribute<?>[] folderAttributes(Path where) {
    return posix(where)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FOLDER)}
        : new FileAttribute<?>[0];
  }

  /**
   * Reports, once per path and process, an existing file or folder that grants anything to its
   * group or to others; quiet when it is the owner's alone, absent, or on a file system without
   * POSIX permissions.
   */
  public static void check(Path path, Consumer<String> warn) {
    if (!posix(path)) return;
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(path); // a link's target: its own mode is always 0777
    } catch (IOException | UnsupportedOperationException e) {
      return; // gone meanwhile, or not ours to judge
    }
    if (OWNER.containsAll(mode) || !REPORTED.add(path.toAbsolutePath().normalize())) return;
    boolean folder = Files.isDirectory(path);
    warn.accept(
        path
            + " can be reached by other local users (mode "
            + octal(mode)
            + ", "
            + PosixFilePermissions.toString(mode)
            + "); only its owner should: run chmod "
            + (folder ? "700" : "600")
            + " '"
            + path
            + "' (or chmod -R go-rwx on the"
            + " context's .toa folder)");
  }

  /** The mode as {@code chmod} writes it, such as {@code 0644}. */
  public static String octal(Set<PosixFilePermission> mode) {
    int bits = 0;
    for (PosixFilePermission p : mode) bits |= 1 << (8 - p.ordinal());
    return String.format("%04o", bits);
  }

  private static boolean posix(Path where) {
    return where.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
