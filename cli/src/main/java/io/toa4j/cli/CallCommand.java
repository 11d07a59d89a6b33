package io.toa4j.cli;

import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa call}: one call of an operation, its reply printed as YAML. */
@Command(
    name = "call",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Calls an operation and prints its reply as YAML.",
      "",
      "The call goes to the toa run serving the context when there is one (see .toa/run.json);",
      "otherwise the context is booted in this process for the one call."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      " 0:output, printed to stdout",
      " 1:failure: printed to stderr as 'failed (CODE): message'",
      " 2:refusal: printed to stderr as 'refused: CODE' and the cause",
      "64:bad usage"
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  toa call billing.wallets.credit \\",
      "      \"{ query: { id: 8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f }, input: { amount: 5000, type: topup, ref: c1 } }\"",
      "  toa call billing.wallets.observe \"{ query: { id: 8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f } }\""
    })
final class CallCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "<endpoint>",
      description = "namespace.name.operation, such as billing.wallets.credit")
  private String endpoint;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "<request>",
      description =
          "The request in YAML: { query: { id, version }, input: { ... } }. Absent: the empty request.")
  private String request = "";

  @Option(
      names = "--id",
      paramLabel = "<identity>",
      description =
          "The call's identity: the same identity is the same call. Default: a fresh one.")
  private String identity;

  @Option(
      names = "--verbose",
      description = {
        "Tell on stderr where the call runs, under which identity, whether it waits for another call, and the runtime's log.",
        "Without it, a call that answers prints nothing on stderr but one line for each message it caused that was retried"
            + " or parked."
      })
  private boolean verbose;

  @Override
  public Integer call() {
    Path context = toa.context();
    Request parsed = YamlText.request(request);
    Optional<Served> served = toa.served();
    if (served
        .isEmpty()) { // this process's own logs: a relayed call leaves the serving process's alone
      if (!verbose) Toa.quietLogs();
      Toa.quietDeliveries();
    }
    PrintWriter err = spec.commandLine().getErr();
    Consumer<String> stderr = lines(err);
    Consumer<String> notes = verbose ? stderr : note -> {};
    // Minted here, not by the application, so --verbose can tell it and the call can be made again.
    String id = identity != null ? identity : io.toa4j.runtime.Toa.newIdentity();
    Wire.Call call = new Wire.Call(endpoint, parsed, Optional.of(id));
    Reply reply =
        served.isPresent()
            ? served.get().call(context, call, notes)
            : Dispatch.call(context, call, notes, stderr);
    return print(reply, spec.commandLine().getOut(), err);
  }

  /** Each line printed and flushed at once, so it shows before a slow call ends. */
  private static Consumer<String> lines(PrintWriter err) {
    return line -> {
      err.println(line);
      err.flush();
    };
  }

  private static int print(Reply reply, PrintWriter out, PrintWriter err) {
    if (reply instanceof Reply.Output output) {
      out.print(YamlText.print(output.value()));
      out.flush();
      return Toa.OUTPUT;
    }
    Refusal refusal = ((Reply.Refused) reply).refusal();
    err.println("refused: " + refusal.code());
    refusal.cause().ifPresent(cause -> err.print(YamlText.print(Optional.of(cause))));
    err.flush();
    return Toa.REFUSED;
  }
}
