package io.toa4j.spring;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.search.Search;
import io.toa4j.runtime.Toa;
import java.util.Collection;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Actuator's view of the context: down when the storage or the bus does not answer (the reason in
 * the details), up otherwise, with the outbox backlog and the parked messages as details.
 *
 * <p>A backlog or a parked message does not turn it down: the service still answers, and a parked
 * message needs a person, not a restart; alert on the gauges ({@code docs/observability.md}). The
 * two numbers are read from the runtime's gauges, which ask their server at most once per five
 * seconds however often health is read: a probe costs the engines one question each.
 */
final class ToaHealthIndicator implements HealthIndicator {
  private final Toa toa;

  ToaHealthIndicator(Toa toa) {
    this.toa = toa;
  }

  @Override
  public Health health() {
    Optional<String> problem = toa.admin().health();
    Health.Builder health =
        problem.map(reason -> Health.down().withDetail("reason", reason)).orElseGet(Health::up);
    gauges("toa.outbox.backlog").ifPresent(backlog -> health.withDetail("outboxBacklog", backlog));
    gauges("toa.parked").ifPresent(parked -> health.withDetail("parked", parked));
    return health.build();
  }

  /** The sum of the gauges of that name; empty when there is none, or one cannot answer now. */
  private Optional<Long> gauges(String name) {
    Collection<Gauge> gauges = Search.in(toa.metrics()).name(name).gauges();
    if (gauges.isEmpty()) return Optional.empty();
    double sum = 0;
    for (Gauge gauge : gauges) sum += gauge.value();
    return Double.isNaN(sum) ? Optional.empty() : Optional.of((long) sum);
  }
}
