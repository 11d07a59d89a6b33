package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toa call} relayed over a real control channel on a loopback socket, against the same
 * command line run here in full ({@link Toa}, which reaches the same channel's call route). The
 * application behind the channel is a lambda; the end-to-end tests boot a real one.
 */
class RelayTest {
  private static final String TOKEN = "0123456789abcdef";
  private static final String WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @TempDir Path context;
  private ControlChannel channel;
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void serve() throws Exception {
    Files.writeString(context.resolve(ContextFolder.FILE), "name: test\n");
    channel =
        ControlChannel.start(
            (endpoint, request, identity) -> {
              calls.add(endpoint);
              return switch (endpoint) {
                case "billing.wallets.observe" ->
                    new Reply.Output(Optional.of(Map.of("id", WALLET, "balance", 5000L)));
                case "billing.wallets.debit" ->
                    new Reply.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 5000L)));
                case "billing.wallets.crash" -> throw new IllegalStateException("storage closed");
                default -> throw new Failure(Failure.Code.ENDPOINT, "no operation " + endpoint);
              };
            },
            TOKEN,
            context);
    new RunFile(ProcessHandle.current().pid(), channel.port(), TOKEN).write(RunFile.path(context));
  }

  @AfterEach
  void close() {
    channel.close();
  }

  @Test
  void call_relayed_printsWhatTheFullCommandLinePrints_forAnOutputARefusalAFailureAndBadUsage() {
    List<List<String>> lines =
        List.of(
            List.of("call", "billing.wallets.observe", "{ query: { id: " + WALLET + " } }"),
            List.of(
                "call",
                "--id",
                "debit-1",
                "billing.wallets.debit",
                "{ query: { id: " + WALLET + " }, input: { amount: 9 } }"),
            List.of("call", "billing.purses.observe"),
            List.of("call", "billing.wallets.crash"),
            List.of("call", "billing.wallets.observe", "{ query: { id: " + WALLET),
            List.of(
                "call",
                "billing.wallets.observe",
                "{ query: { id: 12345678901234567890123456789012 } }"),
            List.of("call"),
            List.of("call", "a.b.c", "{}", "surplus"));

    for (List<String> line : lines) {
      ToaShell.Result full = full(line);
      ToaShell.Result relayed =
          relayed(line).orElseThrow(() -> new AssertionError("not relayed: " + line));

      assertThat(relayed).as("%s", line).isEqualTo(full);
    }
    assertThat(full(lines.get(0)).exitCode()).isZero();
    assertThat(full(lines.get(1)))
        .satisfies(p -> assertThat(p.exitCode()).isEqualTo(2))
        .satisfies(
            p -> assertThat(p.err()).contains("refused: INSUFFICIENT_FUNDS", "balance: 5000"));
    assertThat(full(lines.get(3)).err())
        .contains("failed (SYSTEM): IllegalStateException: storage closed");
    assertThat(full(lines.get(4)))
        .satisfies(p -> assertThat(p.exitCode()).isEqualTo(1))
        .satisfies(p -> assertThat(p.err()).contains("failed (CONTRACT): the request is not YAML"));
    assertThat(full(lines.get(6)))
        .satisfies(p -> assertThat(p.exitCode()).isEqualTo(Toa.USAGE))
        .satisfies(
            p -> assertThat(p.err()).contains("Missing required parameter", "Usage: toa call"));
  }

  @Test
  void call_relayedWithVerbose_tellsItRanInTheServingProcessWhichReadTheCommandLine() {
    ToaShell.Result relayed =
        relayed(List.of("call", "--verbose", "--id", "c-1", "billing.wallets.observe"))
            .orElseThrow();

    assertThat(relayed.exitCode()).isZero();
    assertThat(relayed.err())
        .isEqualTo(
            "toa: calling billing.wallets.observe in the running context, pid "
                + ProcessHandle.current().pid()
                + " (port "
                + channel.port()
                + "), which read the command line; identity c-1\n");
  }

  @Test
  void relay_fromAClassLoaderWithoutTheLibraries_answers() throws Exception {
    URL classes = Relay.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader alone =
        new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
      Method attempt =
          alone
              .loadClass(Relay.class.getName())
              .getDeclaredMethod(
                  "attempt", List.class, Path.class, PrintStream.class, PrintStream.class);
      attempt.setAccessible(true);
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      Object code =
          attempt.invoke(
              null,
              List.of("call", "billing.wallets.observe"),
              context,
              new PrintStream(out, true),
              new PrintStream(new ByteArrayOutputStream()));

      assertThat(code).isEqualTo(OptionalInt.of(0));
      assertThat(out.toString(Charset.defaultCharset())).contains("balance: 5000");
      assertThat(alone.loadClass(Relay.class.getName()).getClassLoader()).isSameAs(alone);
    }
  }

  @Test
  void commandLinesThatAreNotAPlainCall_areNotRelayed() {
    assertThat(Relay.relayable(List.of("call", "a.b.c", "{}"))).isTrue();
    assertThat(
            Relay.relayable(List.of("--context", "shop", "call", "--verbose", "--id=x", "a.b.c")))
        .isTrue();
    assertThat(Relay.relayable(List.of("--context", "call", "run")))
        .as("--context's value is no command")
        .isFalse();
    for (List<String> line :
        List.<List<String>>of(
            List.of("run"),
            List.of("parked"),
            List.of(),
            List.of("--help"),
            List.of("call", "--help"),
            List.of("call", "-h"),
            List.of("--version", "call"),
            List.of("call", "--", "a.b.c"),
            List.of("call", "@args.txt"),
            List.of("call", "--bogus", "a.b.c"),
            List.of("call", "--id"))) {
      assertThat(Relay.relayable(line)).as("%s", line).isFalse();
      assertThat(relayed(line)).as("%s", line).isEmpty();
    }
    assertThat(calls).isEmpty();
  }

  @Test
  void call_whoseRunFileNamesAFinishedProcess_isNotRelayed() throws Exception {
    Process finished = new ProcessBuilder("true").start();
    finished.waitFor();
    new RunFile(finished.pid(), channel.port(), TOKEN).write(RunFile.path(context));

    assertThat(relayed(List.of("call", "billing.wallets.observe"))).isEmpty();
    assertThat(calls).isEmpty();
  }

  @Test
  void call_toAChannelThatRefusesTheToken_isNotRelayed_andNothingRuns() {
    new RunFile(ProcessHandle.current().pid(), channel.port(), "wrong")
        .write(RunFile.path(context));

    assertThat(relayed(List.of("call", "billing.wallets.observe"))).isEmpty();
    assertThat(calls).isEmpty();
  }

  @Test
  void relayRoute_refusesTooManyArgumentsAnotherCommandAndAMalformedBody() throws Exception {
    List<String> many = new ArrayList<>(List.of("call", "a.b.c"));
    while (many.size() <= RelayedCommand.MAX_ARGS) many.add("x");

    HttpResponse<String> tooMany = post(TOKEN, command(many));
    assertThat(tooMany.statusCode()).isEqualTo(400);
    assertThat(tooMany.body()).contains("at most " + RelayedCommand.MAX_ARGS + " arguments");
    HttpResponse<String> run = post(TOKEN, command(List.of("run")));
    assertThat(run.statusCode()).isEqualTo(400);
    assertThat(run.body()).contains("toa call");
    assertThat(post(TOKEN, new byte[] {1, 2, 3}).statusCode()).isEqualTo(400);
    assertThat(post("wrong", command(List.of("call", "a.b.c"))).statusCode()).isEqualTo(403);
    assertThat(calls).isEmpty();
  }

  private byte[] command(List<String> args) {
    return new RelayedCommand(args, context, Charset.defaultCharset(), false).bytes();
  }

  private HttpResponse<String> post(String token, byte[] body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + channel.port() + Relay.PATH))
                .header(Wire.TOKEN_HEADER, token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** The command line relayed from the context's folder; empty when it was not. */
  private Optional<ToaShell.Result> relayed(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    OptionalInt code =
        Relay.attempt(args, context, new PrintStream(out, true), new PrintStream(err, true));
    if (code.isEmpty()) return Optional.empty();
    return Optional.of(
        new ToaShell.Result(
            code.getAsInt(),
            out.toString(Charset.defaultCharset()),
            err.toString(Charset.defaultCharset())));
  }

  private ToaShell.Result full(List<String> args) {
    return ToaShell.inThisProcess(context, args.toArray(String[]::new));
  }
}
