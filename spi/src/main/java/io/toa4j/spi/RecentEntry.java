package io.toa4j.spi;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * An outbox entry as an operator sees it: what it carries, and whether and when it was published.
 *
 * @param entry the entry as committed, with its current claim
 * @param published epoch milliseconds of the last time it was marked published; empty while it
 *     waits to be published (again)
 */
public record RecentEntry(OutboxEntry entry, OptionalLong published) {
  public RecentEntry {
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(published, "published");
  }
}
