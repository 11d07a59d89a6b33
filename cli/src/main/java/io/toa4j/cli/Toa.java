package io.toa4j.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code toa} command: serves a context ({@code toa run}) and calls its operations from the
 * shell ({@code toa call}).
 *
 * <p>Exit codes: {@value #OUTPUT} for an output, {@value #FAILED} for a failure (a manifest or
 * compile error at boot included), {@value #REFUSED} for a refusal, {@value #USAGE} for bad usage
 * (the BSD {@code EX_USAGE}; picocli's own 2 would read as a refusal here).
 */
@Command(
    name = "toa",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = "Runs a toa4j context and calls its operations.",
    subcommands = {RunCommand.class, CallCommand.class, ParkedCommand.class, ReplayCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {" 0:output", " 1:failure", " 2:refusal", "64:bad usage"})
public final class Toa implements Callable<Integer> {
  static final int OUTPUT = 0;
  static final int FAILED = 1;
  static final int REFUSED = 2;
  static final int USAGE = 64;

  @Option(
      names = "--context",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description = "The context's folder, holding context.toa.yaml. Default: the nearest such folder from the current directory upwards.")
  private Path context;

  @Spec private CommandSpec spec;

  /** Runs the command line and exits with its code. */
  public static void main(String... args) {
    System.exit(commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true)).execute(args));
  }

  /** The command line with toa's exit codes and error printing, writing to these streams. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine line = new CommandLine(new Toa());
    line.setOut(out);
    line.setErr(err);
    line.setExitCodeExceptionMapper(e -> e instanceof ParameterException ? USAGE : FAILED);
    line.setExecutionExceptionHandler(new Errors());
    return line;
  }

  /** Without a command: the usage, on stderr. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("toa: name a command");
    spec.commandLine().usage(spec.commandLine().getErr());
    return USAGE;
  }

  /** The context the command acts on. */
  Path context() {
    return ContextFolder.locate(Optional.ofNullable(context), Path.of(""));
  }

  /**
   * Lowers the log level to warnings, so a call's stdout and stderr hold its reply only. Works
   * because SLF4J Simple reads its level when the first logger is made, and no command makes one
   * before it runs.
   */
  static void quietLogs() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  /** The version stamped into the jar's manifest by the build. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Toa.class.getPackage().getImplementationVersion();
      return new String[] {
        "toa " + (version == null ? "(development build)" : version) + ", on Java " + Runtime.version()
      };
    }
  }
}
