package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line in this JVM: parsing, help, exit codes; nothing here boots a context. */
class ToaCommandLineTest {
  @TempDir Path temp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void help_exitsZeroAndListsTheCommandsAndExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("Usage: toa", "--context=DIR", "run", "call", "64");
  }

  @Test
  void commands_areNamedAsTheirAnnotationsNameThem_andACommandLineNeedsOnlyTheOneItNames() {
    Toa.COMMANDS.forEach(
        (name, command) ->
            assertThat(command.getAnnotation(picocli.CommandLine.Command.class).name())
                .isEqualTo(name));
    assertThat(Toa.needed("call", "billing.wallets.observe")).containsExactly(CallCommand.class);
    assertThat(Toa.needed("--verbose", "replay", "--all")).containsExactly(ReplayCommand.class);
    assertThat(Toa.needed("--context", "call", "run"))
        .as("--context's value is no command")
        .containsExactly(RunCommand.class);
    assertThat(Toa.needed("--help")).containsExactlyElementsOf(Toa.COMMANDS.values());
    assertThat(Toa.needed("cal"))
        .as("a mistyped name gets picocli's suggestion")
        .containsExactlyElementsOf(Toa.COMMANDS.values());
  }

  @Test
  void callHelp_exitsZeroAndDescribesRequestIdentityAndExitCodes() {
    assertThat(run("call", "--help")).isZero();
    assertThat(out.toString())
        .contains("<endpoint>", "<request>", "--id", "--verbose", "--context", "refused: CODE");
  }

  @Test
  void runHelp_exitsZeroAndSaysHowCallsReachIt() {
    assertThat(run("run", "--help")).isZero();
    assertThat(out.toString()).contains("run.json", "SIGTERM");
  }

  @Test
  void run_waitThatIsNotSeconds_exitsWithUsageBeforeBootingAnything() {
    assertThat(run("run", "--context", temp.toString(), "--wait", "soon")).isEqualTo(64);
    assertThat(err.toString()).contains("--wait takes a number of seconds", "'soon'");
    assertThat(run("run", "--context", temp.toString(), "--wait", "-5")).isEqualTo(64);
  }

  @Test
  void version_exitsZeroAndNamesTheCommand() {
    assertThat(run("--version")).isZero();
    assertThat(out.toString()).startsWith("toa ");
  }

  @Test
  void unknownOption_exitsWithUsageNot2WhichMeansRefusal() {
    assertThat(run("call", "--bogus", "a.b.c")).isEqualTo(64);
    assertThat(err.toString()).contains("--bogus");
  }

  @Test
  void callWithoutEndpoint_exitsWithUsage() {
    assertThat(run("call")).isEqualTo(64);
    assertThat(err.toString()).contains("<endpoint>");
  }

  @Test
  void noCommand_printsUsageAndExitsWithUsage() {
    assertThat(run()).isEqualTo(64);
    assertThat(err.toString()).contains("name a command", "Usage: toa");
  }

  @Test
  void call_contextFolderWithoutContextFile_exitsWithUsageAndTheWayOut() {
    assertThat(run("call", "--context", temp.toString(), "a.b.c")).isEqualTo(64);
    assertThat(err.toString()).contains(temp + " has no context.toa.yaml");
  }

  @Test
  void call_requestNotYaml_failsBeforeBootingAnything() throws IOException {
    Files.writeString(temp.resolve("context.toa.yaml"), "name: test\n");

    assertThat(
            run(
                "--context",
                temp.toString(),
                "call",
                "billing.wallets.credit",
                "{ query: { id: 8d1f"))
        .isEqualTo(1);
    assertThat(err.toString()).startsWith("failed (CONTRACT): the request is not YAML");
    assertThat(out.toString()).isEmpty();
    assertThat(temp.resolve(".toa")).doesNotExist();
  }

  private int run(String... args) {
    return Toa.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
  }
}
