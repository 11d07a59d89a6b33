package io.toa4j.test;

import io.toa4j.spi.Parked;
import java.util.List;
import java.util.stream.Collectors;
import org.assertj.core.api.AssertProvider;

/**
 * The messages a context parked after they kept failing, oldest first: {@code
 * assertThat(toa.parked()).one("billing.topups.paid").hasCode("INTERNAL")}.
 *
 * @param messages as the bus keeps them: queue, message, code, reason, attempts
 */
public record ParkedMessages(List<Parked> messages) implements AssertProvider<ParkedAssert> {
  public ParkedMessages {
    messages = List.copyOf(messages);
  }

  /**
   * Those whose message has this label: an event's {@code namespace.name.event}, a task's endpoint.
   */
  public List<Parked> of(String label) {
    return messages.stream().filter(p -> p.message().label().equals(label)).toList();
  }

  @Override
  public ParkedAssert assertThat() {
    return new ParkedAssert(this);
  }

  @Override
  public String toString() {
    if (messages.isEmpty()) return "none";
    return messages.stream()
        .map(
            p ->
                p.message().label()
                    + " on "
                    + p.queue()
                    + " after "
                    + p.attempts()
                    + " attempt(s), "
                    + p.code()
                    + ": "
                    + p.reason())
        .collect(Collectors.joining("; "));
  }
}
