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
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa replay}: puts parked messages back on their queues. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Puts a parked message (or those the filters choose, or all of them) back on its queue, due at once,"
          + " and announces each as system.messages.replayed.",
      "",
      "It is handled by the toa run serving the context, or when the context next runs. More than "
          + ParkedSelection.CONFIRM_ABOVE
          + " messages are replayed only once confirmed (or with --yes)."
    })
final class ReplayCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Mixin private ParkedSelection which;

  @Override
  public Integer call() {
    Toa.quietLogs();
    boolean single = which.single("replay");
    PrintWriter out = spec.commandLine().getOut();
    try (io.toa4j.runtime.Toa context =
        io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      Admin admin = context.admin();
      if (single) {
        if (!admin.replay(which.id, by("toa replay")))
          throw new CliProblem(
              "failed: no parked message has the id " + which.id + "; toa parked lists them",
              Toa.FAILED);
        out.println("replayed: 1");
        out.flush();
        return Toa.OUTPUT;
      }
      ParkedFilter filter = which.filter(context.clock());
      List<Parked> confirmed =
          which.confirmed(admin, filter, "replay", toa.input(), spec.commandLine().getErr());
      int replayed =
          confirmed.isEmpty()
              ? 0
              : admin.replay(limited(filter, confirmed.size()), by("toa replay")).size();
      out.println("replayed: " + replayed);
      out.flush();
      return Toa.OUTPUT;
    }
  }

  /** The filter, taking no more than the messages confirmed. */
  static ParkedFilter limited(ParkedFilter filter, int confirmed) {
    return new ParkedFilter(
        filter.component(),
        filter.operation(),
        filter.code(),
        filter.since(),
        Math.min(filter.limit(), confirmed));
  }

  /**
   * Who a command's replay or discard is noted as made by: the command and the operating system's
   * user that ran it.
   */
  static String by(String command) {
    String user = System.getProperty("user.name", "");
    return command + (user.isBlank() ? "" : " run by " + user);
  }
}
