package io.toa4j.runtime;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Store;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox entries: each one right after its commit, by the process that committed it,
 * and every entry left unpublished (a crash, a failed publish) by a sweep that claims it once the
 * committer's claim has ended. An entry is marked published only after all its
 * messages are durably on the bus, so a process killed at any instant loses no event and may
 * publish one twice, under the same identity.
 *
 * <p>Published entries are removed after the context's retention; unpublished ones never are.
 * Thread-safe.
 */
final class Publisher implements Engine.AfterCommit, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
  private static final int BATCH = 200;
  private static final long SWEEP_MILLIS = 1000;

  /**
   * How long an entry belongs to one process: its committer, which publishes it at once, or the
   * sweep that claimed it. Another process's sweep takes it only after that, so two processes
   * never publish one entry at the same time, and a dead process's entries wait this long.
   */
  static final long CLAIM_MILLIS = 10_000;

  private final Bus bus;
  private final Collection<Component> announcing;
  private final Set<String> consumed;
  private final Clock clock;
  private final long retentionMillis;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final ExecutorService immediate = Threads.perTask("toa-publish");
  private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(Threads.daemons("toa-sweep"));

  Publisher(Bus bus, Collection<Component> announcing, Set<String> consumed, Clock clock, long retentionMillis) {
    this.bus = bus;
    this.announcing = List.copyOf(announcing);
    this.consumed = Set.copyOf(consumed);
    this.clock = clock;
    this.retentionMillis = retentionMillis;
  }

  /** Sweeps at once (entries a previous run left), then every second. */
  void start() {
    sweeper.scheduleWithFixedDelay(this::sweep, 0, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  public void committed(Component component, OutboxEntry entry) {
    immediate.execute(() -> publish(component, entry));
  }

  /** Publishes every unpublished entry of every announcing component, and removes old ones. */
  void sweep() {
    for (Component component : announcing) {
      Store store = component.store().orElseThrow();
      try {
        long now = clock.millis();
        for (OutboxEntry entry : store.claim(BATCH, now, now + CLAIM_MILLIS)) publish(component, entry);
        store.purgePublished(clock.millis() - retentionMillis, BATCH);
      } catch (RuntimeException e) {
        LOG.error("Outbox sweep of {} failed; it is tried again in {} ms", component.label(), SWEEP_MILLIS, e);
      }
    }
  }

  /** How many entries wait to be published, over all components. */
  long backlog() {
    long n = 0;
    for (Component component : announcing) n += component.store().orElseThrow().unpublished(BATCH).size();
    return n;
  }

  private void publish(Component component, OutboxEntry entry) {
    if (!inFlight.add(entry.id())) return; // the other path is publishing it right now
    try {
      for (Message message : component.announcements().render(entry, consumed)) bus.publish(message);
      component.store().orElseThrow().published(List.of(entry.id()), clock.millis());
    } catch (RuntimeException e) {
      LOG.error(
          "Outbox entry {} of {} was not published; the sweep tries it again", entry.id(), component.label(), e);
    } finally {
      inFlight.remove(entry.id());
    }
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    immediate.shutdown();
    try {
      if (!immediate.awaitTermination(10, TimeUnit.SECONDS)) immediate.shutdownNow();
      sweeper.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
