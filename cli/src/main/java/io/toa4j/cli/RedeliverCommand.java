package io.toa4j.cli;

import io.toa4j.runtime.Admin;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa redeliver}: publishes outbox entries again, under the message identities they had. */
@Command(
    name = "redeliver",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Delivers an outbox entry (or a component's last ones) again: every event and task it sent is published"
          + " again under the same message identity, so a receiver that declares once answers it from its inbox"
          + " and any other runs again.",
      "",
      "It is published by the toa run hosting the component, or when the context next runs."
    })
final class RedeliverCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @ArgGroup(multiplicity = "1")
  private Which which;

  static final class Which {
    @Parameters(paramLabel = "<id>", description = "The outbox entry's id, as toa outbox lists it.")
    String id;

    @ArgGroup(exclusive = false)
    Last last;
  }

  static final class Last {
    @Option(
        names = "--component",
        paramLabel = "NAMESPACE.NAME",
        required = true,
        description = "The component whose entries go again.")
    String component;

    @Option(
        names = "--last",
        paramLabel = "N",
        required = true,
        description = "How many of its newest entries, from 1 to 1000.")
    int count;
  }

  @Override
  public Integer call() {
    Toa.quietLogs();
    if (which.last != null) requireCount(which.last.count);
    PrintWriter out = spec.commandLine().getOut();
    try (io.toa4j.runtime.Toa context =
        io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      Admin admin = context.admin();
      if (which.last != null) {
        List<String> ids =
            admitted(() -> admin.redeliverLast(which.last.component, which.last.count));
        out.println("redelivered: " + ids.size());
        out.flush();
        return Toa.OUTPUT;
      }
      Optional<String> component = admin.redeliver(which.id);
      if (component.isEmpty()) {
        throw new CliProblem(
            "failed: no outbox entry has the id " + which.id + "; toa outbox lists them",
            Toa.FAILED);
      }
      out.println("redelivered: 1 (" + component.get() + ")");
      out.flush();
      return Toa.OUTPUT;
    }
  }

  /** Refuses a count of entries outside 1 to 1000 as bad usage. */
  static void requireCount(int count) {
    if (count < 1 || count > 1000)
      throw new CliProblem("toa: --last is from 1 to 1000; got " + count, Toa.USAGE);
  }

  /**
   * What the admin answers; a component it does not know, or that keeps no state, is a failure in
   * words.
   */
  static <T> T admitted(Supplier<T> asked) {
    try {
      return asked.get();
    } catch (IllegalArgumentException e) {
      throw new CliProblem("failed: " + e.getMessage(), Toa.FAILED);
    }
  }
}
