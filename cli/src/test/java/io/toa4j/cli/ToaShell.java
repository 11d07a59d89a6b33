package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Runs {@code bin/toa} as a separate process, as a person at a shell does, on a copy of the shop
 * example. Every process has a deadline; none is waited for by sleeping.
 */
final class ToaShell {
  /** The repository, from the build (failsafe sets it); the cli module's parent otherwise. */
  static final Path REPOSITORY =
      Path.of(System.getProperty("toa.repository", "..")).toAbsolutePath().normalize();

  static final Path TOA = REPOSITORY.resolve("bin/toa");
  static final Duration DEADLINE = Duration.ofMinutes(2);
  static final String WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  private static final Pattern GATEWAY = Pattern.compile("HTTP gateway on 127\\.0\\.0\\.1:(\\d+)");
  private static final YAMLMapper YAML = new YAMLMapper();

  private final Path logs;
  private final java.util.Map<String, String> environment;
  private final AtomicInteger count = new AtomicInteger();
  private final List<Process> started = new ArrayList<>();

  /** A shell that keeps each process's stdout and stderr under this folder. */
  ToaShell(Path logs) {
    this(logs, java.util.Map.of());
  }

  /** A shell whose processes get these environment variables too, such as TOA_BUS. */
  ToaShell(Path logs, java.util.Map<String, String> environment) {
    this.logs = logs;
    this.environment = java.util.Map.copyOf(environment);
  }

  /** What a finished {@code toa} printed and how it ended. */
  record Result(int exitCode, String out, String err) {
    /** The stdout as a YAML tree. */
    JsonNode yaml() {
      try {
        return YAML.readTree(out);
      } catch (JacksonException e) {
        throw new AssertionError("stdout is not YAML: " + out, e);
      }
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** A copy of examples/shop under the folder: everything but its state in {@code .toa/}. */
  static Path copyOfShop(Path into) {
    Path source = REPOSITORY.resolve("examples/shop");
    Path target = into.resolve("shop");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path relative = source.relativize(file);
        if (relative.startsWith(".toa")) continue;
        Path copy = target.resolve(relative.toString());
        if (Files.isDirectory(file)) Files.createDirectories(copy);
        else Files.copy(file, copy);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return target;
  }

  /** Runs {@code toa} with the arguments in the folder and waits for it to end. */
  Result run(Path folder, String... args) {
    return run(TOA, folder, args);
  }

  /** Runs a {@code toa} script (the repository's, or a link to it) and waits for it to end. */
  Result run(Path script, Path folder, String... args) {
    return run(script, folder, ProcessBuilder.Redirect.from(devNull()), args);
  }

  /**
   * Runs {@code toa} with the arguments in the folder, the text on its stdin, and waits for it to
   * end.
   */
  Result runWithInput(Path folder, String stdin, String... args) {
    Path in = logs.resolve("in-" + count.get() + ".txt");
    try {
      Files.writeString(in, stdin, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return run(TOA, folder, ProcessBuilder.Redirect.from(in.toFile()), args);
  }

  private Result run(Path script, Path folder, ProcessBuilder.Redirect input, String... args) {
    int n = count.incrementAndGet();
    Path out = logs.resolve(n + ".out");
    Path err = logs.resolve(n + ".err");
    Process process = start(script, folder, out, err, input, java.util.Map.of(), args);
    try {
      if (!process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "toa " + String.join(" ", args) + " did not end within " + DEADLINE + "\n" + read(err));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return new Result(process.exitValue(), read(out), read(err));
  }

  /**
   * Runs the command line in this JVM, in full (the command line parsed here, the call made through
   * {@link Dispatch}), on the context, and answers what it printed: what {@code toa} printed before
   * it relayed calls. {@code --context} comes last, so an error names the same argument index.
   */
  static Result inThisProcess(Path context, String... args) {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    List<String> line = new ArrayList<>(List.of(args));
    line.addAll(List.of("--context", context.toString()));
    int code =
        Toa.commandLine(new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true))
            .execute(line.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  /** Starts {@code toa} in the background; {@link #close()} ends it if the test does not. */
  Process start(Path folder, Path out, Path err, String... args) {
    return start(
        TOA, folder, out, err, ProcessBuilder.Redirect.from(devNull()), java.util.Map.of(), args);
  }

  /** Starts {@code toa} in the background with more environment variables than the shell's. */
  Process start(
      Path folder, Path out, Path err, java.util.Map<String, String> more, String... args) {
    return start(TOA, folder, out, err, ProcessBuilder.Redirect.from(devNull()), more, args);
  }

  /** Kills every process this shell started that still runs, and waits for it to end. */
  void close() throws InterruptedException {
    for (Process process : started) {
      if (process.isAlive())
        process.destroyForcibly().waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A request to record a paid top-up of the wallet, under the id derived from its checkout. */
  static String topup(String checkout, long amount) {
    String id =
        String.format(
            "%032x", new java.math.BigInteger(1, checkout.getBytes(StandardCharsets.UTF_8)));
    return "{ query: { id: "
        + id.substring(id.length() - 32)
        + " }, input: { checkout: "
        + checkout
        + ", customer: "
        + WALLET
        + ", amount: "
        + amount
        + ", currency: EUR } }";
  }

  /** A {@code toa run} that serves HTTP on {@code port}. */
  record Served(Process process, int port) {
    /** Stops it with SIGTERM and waits until it has. */
    void stop() throws InterruptedException {
      process.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("toa run stops on SIGTERM").isTrue();
    }
  }

  /**
   * Starts {@code toa run} of the folder with its gateway on a free port and more options (such as
   * {@code --host}), logging to {@code name.out} and {@code name.err}, and answers it once it
   * serves.
   */
  Served serve(Path folder, String name, java.util.Map<String, String> more, String... options) {
    Path err = logs.resolve(name + ".err");
    List<String> args = new ArrayList<>(List.of("run", "--http", "127.0.0.1:0"));
    args.addAll(List.of(options));
    Process run =
        start(folder, logs.resolve(name + ".out"), err, more, args.toArray(String[]::new));
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              if (!run.isAlive())
                throw new AssertionError(
                    "toa run ended with " + run.exitValue() + ":\n" + read(err));
              // alone on the embedded bus it is served through its control channel; on a
              // distributed one it hosts
              return read(err).contains("is served by pid " + run.pid())
                  || read(err).contains(": pid " + run.pid() + " hosts ");
            });
    Matcher port = GATEWAY.matcher(read(err));
    assertThat(port.find()).as(read(err)).isTrue();
    return new Served(run, Integer.parseInt(port.group(1)));
  }

  /** Observes the wallet and checks it holds the balance at the version. */
  void assertWallet(Path shop, long balance, long version) {
    Result observe =
        run(shop, "call", "billing.wallets.observe", "{ query: { id: " + WALLET + " } }");
    assertThat(observe.exitCode()).as("%s", observe).isZero();
    assertThat(observe.yaml().path("balance").asLong()).as("%s", observe).isEqualTo(balance);
    assertThat(observe.yaml().path("VERSION").asLong()).as("%s", observe).isEqualTo(version);
  }

  private Process start(
      Path script,
      Path folder,
      Path out,
      Path err,
      ProcessBuilder.Redirect input,
      java.util.Map<String, String> more,
      String... args) {
    List<String> command = new ArrayList<>();
    command.add(script.toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
    builder.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(input);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    // The build under test just made the jar: a rebuild in the middle of it would test something
    // else.
    builder.environment().put("TOA_NO_BUILD", "1");
    builder.environment().putAll(environment);
    builder.environment().putAll(more);
    try {
      Process process = builder.start();
      started.add(process);
      return process;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + script, e);
    }
  }

  private static java.io.File devNull() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }
}
