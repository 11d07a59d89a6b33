package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/toa as a person first meets it: help, version, usage errors, and running it from anywhere.
 */
class UsageIT {
  @TempDir Path temp;
  private Path nowhere;
  private ToaShell toa;

  @BeforeEach
  void shell() throws IOException {
    nowhere = Files.createDirectories(temp.resolve("nowhere"));
    toa = new ToaShell(Files.createDirectories(temp.resolve("logs")));
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void help_exits0AndDescribesTheCommands() {
    ToaShell.Result help = toa.run(nowhere, "--help");

    assertThat(help.exitCode()).as("%s", help).isZero();
    assertThat(help.out()).contains("Usage: toa", "run", "call", "--context");
  }

  @Test
  void callHelp_exits0AndDescribesTheCall() {
    ToaShell.Result help = toa.run(nowhere, "call", "--help");

    assertThat(help.exitCode()).as("%s", help).isZero();
    assertThat(help.out())
        .contains("Usage: toa call", "<endpoint>", "<request>", "--id", "--verbose");
  }

  @Test
  void version_exits0WithTheBuiltVersion() {
    ToaShell.Result version = toa.run(nowhere, "--version");

    assertThat(version.exitCode()).as("%s", version).isZero();
    assertThat(version.out()).startsWith("toa 0.");
  }

  @Test
  void badOption_exits64() {
    ToaShell.Result bad = toa.run(nowhere, "call", "--no-such-option", "billing.wallets.observe");

    assertThat(bad.exitCode()).as("%s", bad).isEqualTo(64);
    assertThat(bad.err()).contains("--no-such-option");
  }

  @Test
  void call_outsideAnyContext_exits64SayingWhereItLookedAndWhatToDo() {
    ToaShell.Result call = toa.run(nowhere, "call", "billing.wallets.observe");

    assertThat(call.exitCode()).as("%s", call).isEqualTo(64);
    assertThat(call.err()).contains("no context.toa.yaml in " + nowhere, "--context DIR");
  }

  @Test
  void toa_throughASymlinkElsewhere_findsItsRepository() throws IOException {
    Path bin = Files.createDirectories(temp.resolve("bin"));
    Path link = Files.createSymbolicLink(bin.resolve("toa"), ToaShell.TOA);

    ToaShell.Result help = toa.run(link, nowhere, "--help");
    Files.delete(link); // before @TempDir cleans up, which warns about links that leave it

    assertThat(help.exitCode()).as("%s", help).isZero();
    assertThat(help.out()).contains("Usage: toa");
  }
}
