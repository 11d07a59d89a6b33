package io.toa4j.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files and folders made for their owner alone, and existing ones reported, never changed. */
class OwnerOnlyTest {
  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();

  @Test
  void folder_missing_isMade0700_withEveryMissingParent() throws Exception {
    Path folder = OwnerOnly.folder(dir.resolve(".toa/secrets"), warnings::add);

    assertThat(Files.getPosixFilePermissions(folder)).isEqualTo(OwnerOnly.FOLDER);
    assertThat(Files.getPosixFilePermissions(folder.getParent())).isEqualTo(OwnerOnly.FOLDER);
    assertThat(warnings).isEmpty();
  }

  @Test
  void file_missing_isMadeEmpty0600() throws Exception {
    Path file = OwnerOnly.file(dir.resolve("x.db"), warnings::add);

    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(OwnerOnly.FILE);
    assertThat(Files.size(file)).isZero();
    assertThat(warnings).isEmpty();
  }

  @Test
  void file_existingAndWider_isKeptAsItIs_andReportedOnceWithItsModeAndTheChmod() throws Exception {
    Path file =
        Files.createFile(
            dir.resolve("x.db"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    Files.writeString(file, "kept");

    OwnerOnly.file(file, warnings::add);
    OwnerOnly.file(file, warnings::add);
    OwnerOnly.check(file, warnings::add);

    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(Files.readString(file)).isEqualTo("kept");
    assertThat(warnings)
        .containsExactly(
            file
                + " can be reached by other local users (mode 0644, rw-r--r--); only its owner should:"
                + " run chmod 600 '"
                + file
                + "' (or chmod -R go-rwx on the context's .toa folder)");
  }

  @Test
  void folder_existingAndWider_isReportedWithChmod700() throws Exception {
    Path folder =
        Files.createDirectory(
            dir.resolve(".toa"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));

    OwnerOnly.folder(folder, warnings::add);

    assertThat(Files.getPosixFilePermissions(folder))
        .isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("(mode 0750, rwxr-x---)")
        .contains("run chmod 700 '" + folder + "'");
  }

  @Test
  void check_ownerOnlyOrAbsent_reportsNothing() throws Exception {
    Path readOnly =
        Files.createFile(
            dir.resolve("r"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r--------")));

    OwnerOnly.check(readOnly, warnings::add);
    OwnerOnly.check(dir.resolve("absent"), warnings::add);
    OwnerOnly.check(OwnerOnly.folder(dir.resolve("f"), warnings::add), warnings::add);

    assertThat(warnings).isEmpty();
  }

  @Test
  void check_aLinkToAnOwnerOnlyFolder_judgesTheTarget_notTheLinksOwnMode() throws Exception {
    Path target = OwnerOnly.folder(dir.resolve("elsewhere/.toa"), warnings::add);
    Path link = Files.createSymbolicLink(dir.resolve(".toa"), target);

    OwnerOnly.folder(link, warnings::add);

    assertThat(warnings).isEmpty();
  }

  @Test
  void octal_writesTheModeAsChmodDoes() {
    assertThat(OwnerOnly.octal(PosixFilePermissions.fromString("rwxr-x--x"))).isEqualTo("0751");
    assertThat(OwnerOnly.octal(OwnerOnly.FILE)).isEqualTo("0600");
  }
}
