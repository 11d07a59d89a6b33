package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextFolderTest {
  @TempDir Path temp;

  @Test
  void locate_fromAFolderInsideTheContext_findsTheNearestContextUpwards() throws IOException {
    Path outer = context(temp.resolve("outer"));
    Path inner = context(outer.resolve("nested"));
    Path deep = Files.createDirectories(inner.resolve("components/billing.wallets/operations"));

    assertThat(ContextFolder.locate(Optional.empty(), deep)).isEqualTo(inner);
    assertThat(ContextFolder.locate(Optional.empty(), outer)).isEqualTo(outer);
  }

  @Test
  void locate_outsideAnyContext_namesWhereItSearchedAndTheWayOut() throws IOException {
    Path nowhere = Files.createDirectories(temp.resolve("nowhere"));

    assertThatThrownBy(() -> ContextFolder.locate(Optional.empty(), nowhere))
        .isInstanceOfSatisfying(
            CliProblem.class, p -> assertThat(p.exitCode()).isEqualTo(Toa.USAGE))
        .hasMessageContaining("no context.toa.yaml in " + nowhere.toAbsolutePath())
        .hasMessageContaining("--context DIR");
  }

  @Test
  void locate_givenRelativeFolder_resolvesAgainstTheCurrentFolder() throws IOException {
    Path shop = context(temp.resolve("shop"));

    assertThat(ContextFolder.locate(Optional.of(Path.of("shop")), temp)).isEqualTo(shop);
    assertThat(
            ContextFolder.locate(
                Optional.of(Path.of("../shop")), Files.createDirectories(temp.resolve("x"))))
        .isEqualTo(shop);
  }

  @Test
  void locate_givenFolderWithoutContextFile_failsNamingIt() throws IOException {
    Path empty = Files.createDirectories(temp.resolve("empty"));

    assertThatThrownBy(() -> ContextFolder.locate(Optional.of(empty), temp))
        .isInstanceOf(CliProblem.class)
        .hasMessageContaining(empty + " has no context.toa.yaml");
  }

  @Test
  void locate_givenMissingFolder_failsNamingIt() {
    assertThatThrownBy(() -> ContextFolder.locate(Optional.of(Path.of("missing")), temp))
        .isInstanceOf(CliProblem.class)
        .hasMessageContaining("there is no folder " + temp.resolve("missing"));
  }

  private static Path context(Path folder) throws IOException {
    Files.createDirectories(folder);
    Files.writeString(folder.resolve(ContextFolder.FILE), "name: test\n");
    return folder;
  }
}
