package io.toa4j.runtime;

import io.toa4j.spi.OutageLog;
import io.toa4j.spi.Store;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes expired inbox entries in the background, in bounded batches, so the inbox stays bounded
 * by what one retention window holds, whatever the load; and the journals of continuous runs whose
 * window has passed ({@link Continuity#purge}).
 */
final class Janitor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Janitor.class);
  private static final int BATCH = 1000;
  private static final int BATCHES_PER_ROUND = 50;
  private static final long EVERY_MILLIS = 5000;

  private final List<Component> components;
  private final Optional<Continuity> journal;
  private final OutageLog journalOutage;
  private final Clock clock;
  private final Map<String, OutageLog> outages = new ConcurrentHashMap<>();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(Threads.daemons("toa-inbox"));

  Janitor(Collection<Component> components, Clock clock) {
    this(components, Optional.empty(), clock);
  }

  /**
   * @param journal the journal of the continuous runs of the components this process hosts, when
   *     some is continuous
   */
  Janitor(Collection<Component> components, Optional<Continuity> journal, Clock clock) {
    this.components = List.copyOf(components);
    this.journal = journal;
    this.clock = clock;
    this.journalOutage = new OutageLog(LOG, "Removing expired journals of continuous runs", clock);
  }

  void start() {
    if (!components.isEmpty() || journal.isPresent())
      scheduler.scheduleWithFixedDelay(
          this::sweep, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** One round: up to {@code BATCHES_PER_ROUND} batches per component, and per journal. */
  void sweep() {
    journal.ifPresent(this::purge);
    for (Component component : components) {
      Store store = component.store().orElseThrow();
      try {
        for (int i = 0;
            i < BATCHES_PER_ROUND && store.purgeInbox(clock.millis(), BATCH) >= BATCH;
            i++) {
          // a full batch: there may be more
        }
        outage(component).succeeded();
      } catch (RuntimeException e) {
        if (OutageLog.isOutage(e)) outage(component).failed(e);
        else
          LOG.error(
              "Removing expired inbox entries of {} failed; it is tried again",
              component.label(),
              e);
      }
    }
  }

  private void purge(Continuity continuity) {
    try {
      for (int i = 0;
          i < BATCHES_PER_ROUND && continuity.purge(clock.millis(), BATCH) >= BATCH;
          i++) {
        // a full batch: there may be more
      }
      journalOutage.succeeded();
    } catch (RuntimeException e) {
      if (OutageLog.isOutage(e)) journalOutage.failed(e);
      else LOG.error("Removing expired journals of continuous runs failed; it is tried again", e);
    }
  }

  private OutageLog outage(Component component) {
    return outages.computeIfAbsent(
        component.label(),
        label -> new OutageLog(LOG, "Removing expired inbox entries of " + label, clock));
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
