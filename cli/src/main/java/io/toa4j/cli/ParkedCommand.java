package io.toa4j.cli;

import io.toa4j.spi.Parked;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa parked}: the messages that kept failing, kept aside with their reasons. */
@Command(
    name = "parked",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Lists the parked messages of the context as YAML, oldest first: what failed, why, how often;"
          + " all of them, or those the filters choose (as toa replay and toa discard would take them).",
      "",
      "It reads the context's bus only, so it works beside a running toa run. Put a message back with toa replay."
    })
final class ParkedCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Mixin private ParkedFilters filters;

  @Override
  public Integer call() {
    Toa.quietLogs();
    try (io.toa4j.runtime.Toa context =
        io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      List<Object> listed = new ArrayList<>();
      for (Parked p : context.admin().parked(filters.filter(context.clock())))
        listed.add(describe(p, context.admin().journal(p)));
      PrintWriter out = spec.commandLine().getOut();
      out.print(listed.isEmpty() ? "[]\n" : YamlText.print(Optional.of(listed)));
      out.flush();
      return Toa.OUTPUT;
    }
  }

  /**
   * A parked message in words; for a continuous run, its journal too: each step, when it was
   * answered and its answer's size.
   */
  private static Map<String, Object> describe(
      Parked p, List<io.toa4j.runtime.JournaledStep> journal) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("id", p.id());
    entry.put("queue", p.queue());
    entry.put("label", p.message().label());
    entry.put("message", p.message().id());
    entry.put("code", p.code());
    entry.put("reason", p.reason());
    entry.put("attempts", p.attempts());
    entry.put("firstFailure", Instant.ofEpochMilli(p.firstFailed()).toString());
    entry.put("parked", Instant.ofEpochMilli(p.at()).toString());
    if (!journal.isEmpty()) {
      List<Object> steps = new ArrayList<>();
      for (io.toa4j.runtime.JournaledStep step : journal) {
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("step", step.asked());
        shown.put("answered", step.at().toString());
        shown.put("bytes", step.bytes());
        steps.add(shown);
      }
      entry.put("journal", steps);
    }
    return entry;
  }
}
