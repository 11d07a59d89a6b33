package io.toa4j.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An outbox entry as {@link Admin#outbox} lists it: what one committed write sends, and whether it
 * was sent. {@link Admin#redeliver} takes its {@code id}.
 *
 * @param component the component whose write committed it, {@code namespace.name}
 * @param id the entry's id, 32 hexadecimal characters ordered by time
 * @param committed when the write committed
 * @param published when it was last published; empty while it waits to be published (again)
 * @param events the consumed events it announces, each with the message identity it is published
 *     under: {@code created} or {@code updated} as its change says, and every event of the
 *     component's own, which is published only when its condition holds on the change
 * @param tasks the tasks its run sent, in order, each with its identity
 */
public record Outboxed(
    String component,
    String id,
    Instant committed,
    Optional<Instant> published,
    List<Message> events,
    List<Message> tasks) {
  public Outboxed {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(committed, "committed");
    Objects.requireNonNull(published, "published");
    events = List.copyOf(events);
    tasks = List.copyOf(tasks);
  }

  /**
   * One message of an entry.
   *
   * @param label an event's label ({@code namespace.name.event}) or a task's endpoint ({@code
   *     namespace.name.operation})
   * @param identity the message's id, the same every time the entry is published; a receiver's
   *     delivery identity derives from it and its queue
   */
  public record Message(String label, String identity) {
    public Message {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(identity, "identity");
    }
  }
}
