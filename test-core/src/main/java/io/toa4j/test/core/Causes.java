package io.toa4j.test.core;

import io.toa4j.spi.StoredRecord;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * What made each write of a context under test: the message being handled on the writing thread — a
 * call of the scenario, an event at a receiver, a task — and whether it was that message's second
 * delivery. {@link KitBus} and {@link Harness#call} say what they hand to the runtime; {@link
 * KitStorage} notes every committed write with it; twice mode names, for a record that ends
 * differently, the repeated message that wrote it. One per context under test; thread-safe.
 */
final class Causes {
  /**
   * A message handed to the runtime.
   *
   * @param queue the queue it was delivered from; empty for a call of the scenario
   * @param label an event's label, a task's or a call's endpoint
   * @param repeat whether this is its second delivery, after the first was handled
   */
  record Cause(Optional<String> queue, String label, boolean repeat) {}

  /**
   * A committed write: the record's component, id and new version, and the message that made it,
   * when known.
   */
  record Written(String component, String id, long version, Optional<Cause> cause) {}

  private final ThreadLocal<Cause> current = new ThreadLocal<>();
  private final List<Written> written = new CopyOnWriteArrayList<>();

  /**
   * Runs what hands a message to the runtime, with the writes it commits on this thread noted as
   * its own.
   */
  <T> T under(Cause cause, Supplier<T> run) {
    Cause outer = current.get();
    current.set(cause);
    try {
      return run.get();
    } finally {
      if (outer == null) current.remove();
      else current.set(outer);
    }
  }

  /**
   * Notes a committed write of a component's record, with the message being handled on this thread.
   */
  void wrote(String component, StoredRecord record) {
    written.add(
        new Written(component, record.id(), record.version(), Optional.ofNullable(current.get())));
  }

  /** The writes committed so far, in order. */
  List<Written> written() {
    return List.copyOf(written);
  }
}
