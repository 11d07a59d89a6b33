package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What an operator does with a running context: look at its parked messages and put them back,
 * see what its outbox has not published yet, ask whether its engines answer, and wait until what
 * its calls caused has been handled.
 *
 * <p>On a context that hosts nothing (a client of a distributed bus, or one opened to manage a
 * context run elsewhere) the parked messages are the bus's, and there is no outbox of its own.
 * Thread-safe.
 */
public final class Admin {
  private final Supplier<Bus> bus;
  private final Optional<Publisher> publisher;
  private final Optional<Messaging> messaging;
  private final Supplier<Optional<String>> storageHealth;
  private final String probe;

  /**
   * @param storageHealth what does not answer in the storage, if anything
   * @param probe a queue whose depth is asked to see that the bus answers
   */
  Admin(
      Supplier<Bus> bus,
      Optional<Publisher> publisher,
      Optional<Messaging> messaging,
      Supplier<Optional<String>> storageHealth,
      String probe) {
    this.bus = bus;
    this.probe = probe;
    this.publisher = publisher;
    this.messaging = messaging;
    this.storageHealth = storageHealth;
  }

  /** The parked messages of the context's bus, oldest first. */
  public List<Parked> parked() {
    return bus.get().parked();
  }

  /** Puts a parked message back on its queue, due now; false when there is none with that id. */
  public boolean replay(String parkedId) {
    return bus.get().replay(parkedId);
  }

  /** Puts every parked message back on its queue; answers how many went back. */
  public int replayAll() {
    int n = 0;
    for (Parked parked : parked()) if (replay(parked.id())) n++;
    return n;
  }

  /** How many outbox entries of the hosted components are not yet published (0 when none is hosted). */
  public long backlog() {
    return publisher.map(Publisher::backlog).orElse(0L);
  }

  /** Whether the storage and the bus answer: empty when they do, else what does not. */
  public Optional<String> health() {
    Optional<String> storage = storageHealth.get();
    if (storage.isPresent()) return storage;
    try {
      bus.get().depth(probe);
    } catch (RuntimeException e) {
      return Optional.of("the bus does not answer: " + e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * Waits until every event the context's writes announced is published and every message is
   * handled (or parked), at most {@code timeout}. A storage or bus that cannot answer for a while
   * (a server restarting, a connection recovering) is waited for like anything else pending.
   *
   * @return empty when all is settled; else what is still pending, in words
   */
  public Optional<String> settle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> pending = pending();
      if (pending.isEmpty()) return Optional.empty();
      if (System.nanoTime() > deadline) return Optional.of(String.join("; ", pending));
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of(String.join("; ", pending));
      }
    }
  }

  private List<String> pending() {
    List<String> pending = new ArrayList<>();
    try {
      long backlog = backlog();
      if (backlog > 0) pending.add(backlog + " outbox entr(ies) not yet published (events, tasks)");
    } catch (RuntimeException e) { // the storage is away for now: nothing can be said settled
      pending.add("the outbox cannot be read: " + e.getMessage());
    }
    try {
      messaging.ifPresent(m -> pending.addAll(m.pending()));
    } catch (RuntimeException e) { // the bus is away for now, or reconnecting
      pending.add("the queues cannot be counted: " + e.getMessage());
    }
    return pending;
  }
}
