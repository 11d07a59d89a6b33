package io.toa4j.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * The {@code toa} command: serves a context ({@code toa run}), calls its operations from the shell
 * ({@code toa call}) and manages the identities its gateway admits ({@code toa identity}).
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
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {" 0:output", " 1:failure", " 2:refusal", "64:bad usage"})
public final class Toa implements Callable<Integer> {
  static final int OUTPUT = 0;
  static final int FAILED = 1;
  static final int REFUSED = 2;
  static final int USAGE = 64;

  /**
   * The commands, by name, in the order the usage lists them. Each is added to the command line
   * only when needed: reading a command's annotations is most of what picocli costs at start, and a
   * command line such as {@code toa call ...} needs only its own.
   */
  static final Map<String, Class<?>> COMMANDS = commands();

  /** By name, as each command's annotation names it (a test checks the two agree). */
  private static Map<String, Class<?>> commands() {
    Map<String, Class<?>> byName = new LinkedHashMap<>();
    byName.put("run", RunCommand.class);
    byName.put("call", CallCommand.class);
    byName.put("parked", ParkedCommand.class);
    byName.put("replay", ReplayCommand.class);
    byName.put("discard", DiscardCommand.class);
    byName.put("outbox", OutboxCommand.class);
    byName.put("redeliver", RedeliverCommand.class);
    byName.put("check", CheckCommand.class);
    byName.put("identity", IdentityCommand.class);
    return java.util.Collections.unmodifiableMap(byName);
  }

  @Option(
      names = "--context",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description =
          "The context's folder, holding context.toa.yaml. Default: the nearest such folder from the current directory upwards.")
  private Path context;

  @Spec private CommandSpec spec;

  private InputStream input = System.in;

  /**
   * Where {@code --context} and the search for the context start: this process's directory, or a
   * relaying one's.
   */
  private Path directory = Path.of("");

  /** The toa run this command line was relayed to, when it was. */
  private Optional<Served> served = Optional.empty();

  /** Runs the command line here and exits with its code; {@link Main} relays a call when it can. */
  public static void main(String... args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    System.exit(commandLine(out, err, System.in, needed(args)).execute(args));
  }

  /**
   * The commands a command line needs: the one it names first, when it names one; every command
   * otherwise (for the usage, for a mistyped name and its suggestion).
   */
  static Collection<Class<?>> needed(String... args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--context")) i++; // its value is the next argument
      else if (!args[i].startsWith("-"))
        return COMMANDS.containsKey(args[i]) ? List.of(COMMANDS.get(args[i])) : COMMANDS.values();
    }
    return COMMANDS.values();
  }

  /** The command line with toa's exit codes and error printing, writing to these streams. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return commandLine(out, err, System.in);
  }

  /** The command line, reading what a command reads from stdin (a password) from {@code in}. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, InputStream in) {
    return commandLine(out, err, in, COMMANDS.values());
  }

  private static CommandLine commandLine(
      PrintWriter out, PrintWriter err, InputStream in, Collection<Class<?>> commands) {
    Toa toa = new Toa();
    toa.input = in;
    CommandLine line = new CommandLine(toa);
    commands.forEach(line::addSubcommand);
    line.setOut(out);
    line.setErr(err);
    line.setExitCodeExceptionMapper(e -> e instanceof ParameterException ? USAGE : FAILED);
    line.setExecutionExceptionHandler(new Errors());
    return line;
  }

  /**
   * Runs a command line relayed from another process ({@link Relay}) in this one, the toa run that
   * serves its context: parsed, called and printed as it would be there, the output kept in the
   * relaying process's charset. Thread-safe: each command line gets its own command objects.
   */
  static RelayedCommand.Answer relayed(RelayedCommand command, Served served) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, command.charset()), true);
    PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, command.charset()), true);
    String[] args = command.args().toArray(String[]::new);
    CommandLine line =
        commandLine(outWriter, errWriter, InputStream.nullInputStream(), needed(args));
    line.setColorScheme(
        CommandLine.Help.defaultColorScheme(
            command.ansi() ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
    Toa toa = line.getCommand();
    toa.directory = command.directory();
    toa.served = Optional.of(served);
    int code = line.execute(args);
    outWriter.flush();
    errWriter.flush();
    return new RelayedCommand.Answer(code, out.toByteArray(), err.toByteArray());
  }

  /** Without a command: the usage, on stderr. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("toa: name a command");
    spec.commandLine().usage(spec.commandLine().getErr());
    return USAGE;
  }

  /** Where a command reads stdin. */
  InputStream input() {
    return input;
  }

  /** The context the command acts on. */
  Path context() {
    return ContextFolder.locate(Optional.ofNullable(context), directory);
  }

  /** The toa run this command line was relayed to; empty when it runs in its own process. */
  Optional<Served> served() {
    return served;
  }

  /**
   * Lowers the log level to warnings, so a call's stdout and stderr hold its reply only. Works
   * because Logback configures itself ({@link Logs}, which reads this property) when the first
   * logger is made, and no command makes one before it runs.
   */
  static void quietLogs() {
    if (System.getProperty("toa.log.level") == null) System.setProperty("toa.log.level", "WARN");
  }

  /**
   * Turns off the runtime's log of message verdicts (a parked message logs its failure's stack
   * trace): a command that hosts a context for a moment reports them itself, one line each ({@link
   * Consequences}). Works for the reason {@link #quietLogs()} does.
   */
  static void quietDeliveries() {
    if (System.getProperty("toa.log.deliveries") == null)
      System.setProperty("toa.log.deliveries", "OFF");
  }

  /** The version stamped into the jar's manifest by the build. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Toa.class.getPackage().getImplementationVersion();
      return new String[] {
        "toa "
            + (version == null ? "(development build)" : version)
            + ", on Java "
            + Runtime.version()
      };
    }
  }
}
