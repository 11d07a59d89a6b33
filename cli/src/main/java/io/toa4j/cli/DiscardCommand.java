package io.toa4j.cli;

import io.toa4j.runtime.Admin;
import io.toa4j.runtime.ParkedFilter;
import io.toa4j.spi.Parked;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa discard}: gives up on parked messages for good, keeping why. */
@Command(
    name = "discard",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Removes a parked message (or those the filters choose, or all of them) for good, keeping the reason in its"
          + " system.messages record and announcing it as system.messages.discarded.",
      "",
      "More than "
          + ParkedSelection.CONFIRM_ABOVE
          + " messages are discarded only once confirmed (or with --yes)."
    })
final class DiscardCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Mixin private ParkedSelection which;

  @Option(
      names = "--reason",
      required = true,
      paramLabel = "TEXT",
      description = "Why they are given up on; kept with each.")
  private String reason;

  @Override
  public Integer call() {
    Toa.quietLogs();
    boolean single = which.single("discard");
    if (reason.isBlank())
      throw new CliProblem(
          "toa discard: --reason must say why; it is kept with each message", Toa.USAGE);
    PrintWriter out = spec.commandLine().getOut();
    try (io.toa4j.runtime.Toa context =
        io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      Admin admin = context.admin();
      if (single) {
        if (!admin.discard(which.id, reason, ReplayCommand.by("toa discard")))
          throw new CliProblem(
              "failed: no parked message has the id " + which.id + "; toa parked lists them",
              Toa.FAILED);
        out.println("discarded: 1");
        out.flush();
        return Toa.OUTPUT;
      }
      ParkedFilter filter = which.filter(context.clock());
      List<Parked> confirmed =
          which.confirmed(admin, filter, "discard", toa.input(), spec.commandLine().getErr());
      int discarded =
          confirmed.isEmpty()
              ? 0
              : admin
                  .discard(
                      ReplayCommand.limited(filter, confirmed.size()),
                      reason,
                      ReplayCommand.by("toa discard"))
                  .size();
      out.println("discarded: " + discarded);
      out.flush();
      return Toa.OUTPUT;
    }
  }
}
