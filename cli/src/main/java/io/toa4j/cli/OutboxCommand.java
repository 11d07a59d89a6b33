package io.toa4j.cli;

import io.toa4j.runtime.Outboxed;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toa outbox}: what the components' writes sent, and under which message identities. */
@Command(
    name = "outbox",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Lists the newest outbox entries of the context as YAML, newest first: what each write sent (its events"
          + " and tasks, with their message identities), when it committed and when it was published.",
      "",
      "It reads the context's storage only, so it works beside a running toa run. Deliver an entry again with toa redeliver."
    })
final class OutboxCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Spec private CommandSpec spec;

  @Option(
      names = "--component",
      paramLabel = "NAMESPACE.NAME",
      description = "Only this component's entries.")
  private Optional<String> component = Optional.empty();

  @Option(
      names = "--last",
      paramLabel = "N",
      description = "At most this many entries, from 1 to 1000. Default: ${DEFAULT-VALUE}.")
  private int last = 20;

  @Override
  public Integer call() {
    Toa.quietLogs();
    RedeliverCommand.requireCount(last);
    try (io.toa4j.runtime.Toa context =
        io.toa4j.runtime.Toa.builder().directory(toa.context()).connect()) {
      List<Object> listed = new ArrayList<>();
      for (Outboxed entry :
          RedeliverCommand.admitted(() -> context.admin().outbox(component, last)))
        listed.add(describe(entry));
      PrintWriter out = spec.commandLine().getOut();
      out.print(listed.isEmpty() ? "[]\n" : YamlText.print(Optional.of(listed)));
      out.flush();
      return Toa.OUTPUT;
    }
  }

  private static Map<String, Object> describe(Outboxed entry) {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("id", entry.id());
    described.put("component", entry.component());
    described.put("committed", entry.committed().toString());
    described.put("published", entry.published().map(Object::toString).orElse(null));
    described.put("events", messages(entry.events(), "event"));
    described.put("tasks", messages(entry.tasks(), "endpoint"));
    return described;
  }

  private static List<Map<String, String>> messages(List<Outboxed.Message> messages, String label) {
    List<Map<String, String>> described = new ArrayList<>();
    for (Outboxed.Message message : messages) {
      Map<String, String> one = new LinkedHashMap<>();
      one.put(label, message.label());
      one.put("message", message.identity());
      described.add(one);
    }
    return described;
  }
}
