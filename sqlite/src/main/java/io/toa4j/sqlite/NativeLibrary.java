package io.toa4j.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * SQLite's native library, extracted once into a folder of the caller's and loaded from there.
 *
 * <p>Left to itself, the driver extracts its native library from its jar into the temporary folder
 * on every start, under a new name each time, compares the copy with the original byte by byte, and
 * deletes it at a normal exit only (a process killed, or halted after its shutdown hooks, leaves
 * its copy behind). That is about a tenth of a second of every start. Here the library of this
 * driver version and platform is written once, under a name that says both, into {@code
 * <folder>/native/} (made owner-only, as everything under a context's {@code .toa/} is), through a
 * file of its own renamed into place, so a reader never sees half of it; later starts point the
 * driver at it through its documented system properties, {@code org.sqlite.lib.path} and {@code
 * org.sqlite.lib.name}.
 *
 * <p>Once per process, before the first connection: the driver loads its library once. When the
 * properties are set already (by the application, or by an earlier call), or anything here fails,
 * the driver does as it always does. Thread-safe.
 */
public final class NativeLibrary {
  static final String PATH = "org.sqlite.lib.path";
  static final String NAME = "org.sqlite.lib.name";

  private static boolean prepared;

  private NativeLibrary() {}

  /**
   * Points the driver at its library in {@code <folder>/native/}, extracting it there first if
   * needed.
   */
  public static synchronized void prepareIn(Path folder) {
    if (prepared) return;
    prepared = true;
    if (System.getProperty(PATH) != null || System.getProperty(NAME) != null) return;
    try {
      String name = System.mapLibraryName("sqlitejdbc");
      URL resource =
          SQLiteJDBCLoader.class.getResource(
              "/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + name);
      if (resource == null)
        return; // no library for this platform in the jar: the driver says so itself
      Path home =
          ownerOnlyFolder(
              folder.resolve("native").resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion()));
      Path library = home.resolve(name);
      URLConnection connection = resource.openConnection();
      connection.setUseCaches(false); // its own jar file, closed with the stream
      try (InputStream in = connection.getInputStream()) {
        long size = connection.getContentLengthLong();
        if (size <= 0 || !Files.isRegularFile(library) || Files.size(library) != size) {
          Path written =
              Files.createTempFile(home, name, ".part", attributes("rw-------")); // dlopen reads it
          try {
            try (OutputStream out =
                Files.newOutputStream(written)) { // keeps the mode it was made with
              in.transferTo(out);
            }
            Files.move(
                written,
                library,
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
          } finally {
            Files.deleteIfExists(written);
          }
        }
      }
      System.setProperty(PATH, home.toString());
      System.setProperty(NAME, name);
    } catch (IOException | RuntimeException | LinkageError e) {
      // the driver extracts its library into the temporary folder, as it does by default
    }
  }

  private static Path ownerOnlyFolder(Path folder) throws IOException {
    if (Files.isDirectory(folder)) return folder;
    return Files.createDirectories(folder, attributes("rwx------"));
  }

  private static FileAttribute<?>[] attributes(String mode) {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode))
        }
        : new FileAttribute<?>[0];
  }
}
