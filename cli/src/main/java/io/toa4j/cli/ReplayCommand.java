package io.toa4j.cli;

import io.toa4j.runtime.Admin;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa replay}: puts parked messages back on their queues. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Puts a parked message (or all of them) back on its queue, due at once.",
      "",
      "It is handled by the toa run serving the context, or when the context next runs."
    })
final class ReplayCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @ArgGroup(multiplicity = "1")
  private Which which;

  static final class Which {
    @Parameters(paramLabel = "<id>", description = "The parked message's id, as toa parked lists it.")
    String id;

    @Option(names = "--all", description = "Every parked message.")
    boolean all;
  }

  @Override
  public Integer call() {
    Toa.quietLogs();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (io.toa4j.runtime.Toa context = io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      Admin parked = context.admin();
      if (which.all) {
        out.println("replayed: " + parked.replayAll());
        out.flush();
        return Toa.OUTPUT;
      }
      if (!parked.replay(which.id)) {
        err.println("failed: no parked message has the id " + which.id + "; toa parked lists them");
        err.flush();
        return Toa.FAILED;
      }
      out.println("replayed: 1");
      out.flush();
      return Toa.OUTPUT;
    }
  }
}
