package io.toa4j.cli;

import io.toa4j.test.core.Check;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code toa check}: each operation a repeat reaches, run once and twice on drawn inputs, and what
 * ends differently.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Runs every operation a repeat reaches (behind a receiver, a task or a route) on inputs drawn from its JSON Schema,",
      "once and twice under the same call identity, each on a copy of one state, and compares the records (VERSION",
      "included), the events announced, the messages parked and the reply to the repeat.",
      "",
      "Prints one line per operation that ends differently: the operation, the property, both values and the request,",
      "then a summary with the seed. It runs on the embedded engine in temporary folders: the context's .toa/ is never",
      "touched. What a finding means and what to do about it: docs/testing.md."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      " 0:no finding",
      " 1:a finding, or the context could not be checked",
      "64:bad usage"
    },
    footerHeading = "%nExamples:%n",
    footer = {"  toa check", "  toa check --seed 42 --tries 50"})
final class CheckCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Option(
      names = "--seed",
      paramLabel = "<seed>",
      description =
          "The seed every input, id and identity is drawn from; the same seed repeats a run. Default: a random one, printed.")
  private Long seed;

  @Option(
      names = "--tries",
      paramLabel = "<n>",
      description =
          "How many inputs each operation is tried with, at most. Default: ${DEFAULT-VALUE}.")
  private int tries = Check.TRIES;

  @Override
  public Integer call() {
    if (tries < 1)
      throw new CliProblem("toa check: --tries " + tries + ": give at least 1", Toa.USAGE);
    Toa.quietLogs();
    Toa.quietDeliveries();
    Check check = Check.folder(toa.context()).tries(tries);
    if (seed != null) check.seed(seed);
    Check.Report report;
    try {
      report = check.run();
    } catch (AssertionError e) { // a context that did not settle, as the test kit says it
      throw new CliProblem("toa check: " + e.getMessage(), Toa.FAILED);
    }
    PrintWriter out = spec.commandLine().getOut();
    report.findings().forEach(f -> out.println(f.line()));
    report
        .untried()
        .forEach(u -> spec.commandLine().getErr().println("toa check: not tried: " + u));
    out.println(summary(report));
    out.flush();
    spec.commandLine().getErr().flush();
    return report.findings().isEmpty() ? Toa.OUTPUT : Toa.FAILED;
  }

  /**
   * {@code toa check: 1 finding in 2 operation(s) reached by a repeat (a.b.c, d.e.f), 10 tries
   * each, seed 42}.
   */
  private static String summary(Check.Report report) {
    List<String> checked = report.checked();
    String findings =
        report.findings().isEmpty() ? "no finding" : report.findings().size() + " finding(s)";
    String operations =
        checked.size()
            + " operation(s) reached by a repeat"
            + (checked.isEmpty() ? "" : " (" + String.join(", ", checked) + ")");
    String again = report.findings().isEmpty() ? "" : "; repeat it with --seed " + report.seed();
    return "toa check: "
        + findings
        + " in "
        + operations
        + ", "
        + report.tries()
        + " tries each, seed "
        + report.seed()
        + again;
  }
}
