package io.toa4j.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.toa4j.api.Failure;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.OutageLog;
import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verdict on a message with nobody waiting (an event at a receiver, a task): done when its
 * operation answered (an output, or a refusal, which ends the work quietly); for a failure, tried
 * again after a growing delay while it is transient and attempts remain, else parked with its
 * reason. A permanent failure is parked at once, and so is a {@link LinkageError} (as {@code
 * LINKAGE}).
 *
 * <p>Every outcome is logged as one structured line and counted, and signals {@link Progress}. A
 * message handled (done) that carries its {@linkplain Announcements#COMMITTED commit time} has its
 * lag from that commit to now recorded in {@value #LAG_TIMER}, by queue.
 *
 * <p>Each delivery is traced as a span {@code deliver <queue>}, of kind consumer, in the trace its
 * message's headers carry, current while its operation runs.
 */
final class Deliveries {
  private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);

  /** The timer of the time from a message's commit to its handling, by {@code queue}. */
  static final String LAG_TIMER = "toa.delivery.lag";

  private final List<Long> delaysSeconds;
  private final Meters meters;
  private final Clock clock;
  private final Progress progress;
  private final Tracing tracing;
  private final SystemMessages announced;

  /** One per queue: a server out of reach is one WARN and one INFO, not a line per message. */
  private final Map<String, OutageLog> outages = new ConcurrentHashMap<>();

  /**
   * @param clock the wall clock a message's lag is measured on, against its commit time
   * @param progress signalled on every verdict, once it is reached
   * @param tracing records a span per delivery
   * @param announced where a parking is committed, as {@code system.messages.parked}, before the
   *     park verdict is answered
   */
  Deliveries(
      List<Long> delaysSeconds,
      MeterRegistry metrics,
      Clock clock,
      Progress progress,
      Tracing tracing,
      SystemMessages announced) {
    this.tracing = tracing;
    this.announced = announced;
    this.delaysSeconds = List.copyOf(delaysSeconds);
    this.meters = new Meters(metrics);
    this.clock = clock;
    this.progress = progress;
  }

  /** How many times a message is tried before it is parked. */
  int attempts() {
    return delaysSeconds.size() + 1;
  }

  /** Runs the work on the delivery and answers the verdict on it; signals progress either way. */
  Verdict handle(Delivery delivery, Function<Delivery, Result> work) {
    Span span =
        tracing.start(
            "deliver " + delivery.queue(),
            SpanKind.CONSUMER,
            Tracing.extract(delivery.message().headers()));
    span.setAttribute(Tracing.QUEUE, delivery.queue());
    span.setAttribute(Tracing.MESSAGE_ID, delivery.message().id());
    span.setAttribute(Tracing.DELIVERY_ATTEMPT, (long) delivery.attempt());
    try (Scope scope = span.makeCurrent()) {
      Verdict verdict = verdict(delivery, work);
      span.setAttribute(
          Tracing.OUTCOME,
          verdict instanceof Verdict.Retry
              ? "retried"
              : verdict instanceof Verdict.Park ? "parked" : "done");
      return verdict;
    } finally {
      span.end();
      progress.signal();
    }
  }

  private Verdict verdict(Delivery delivery, Function<Delivery, Result> work) {
    String queue = delivery.queue();
    String id = delivery.message().id();
    long attempt = outage(queue).attempt();
    try {
      Result result = work.apply(delivery);
      Span.current()
          .setAttribute(
              Tracing.INBOX_ANSWERED, result instanceof Result.Output output && output.replayed());
      if (result instanceof Result.Refused refused) {
        count(queue, "refused");
        LOG.info("Message refused: queue={} id={} code={}", queue, id, refused.refusal().code());
      } else {
        count(queue, "delivered");
        LOG.debug("Message delivered: queue={} id={} attempt={}", queue, id, delivery.attempt());
      }
      outage(queue).succeeded();
      lag(delivery);
      if (delivery.attempt() > 1) forget(delivery);
      return Verdict.DONE;
    } catch (Failure f) {
      return failed(delivery, attempt, f.code().name(), f.code().isTransient(), f.getMessage(), f);
    } catch (RuntimeException e) {
      return failed(delivery, attempt, Failure.Code.SYSTEM.name(), true, String.valueOf(e), e);
    } catch (LinkageError e) {
      // the author's code throws it as a LINKAGE failure (Authored); this is a class that does not
      // link met outside it, such as an input class bound to: the same on every attempt here
      return failed(delivery, attempt, Failure.Code.LINKAGE.name(), false, String.valueOf(e), e);
    }
  }

  /**
   * The verdict on a delivery whose work failed; {@code attempt} is its ticket of the queue's
   * outage log.
   */
  private Verdict failed(
      Delivery delivery,
      long attempt,
      String code,
      boolean transientFailure,
      String reason,
      Throwable e) {
    String queue = delivery.queue();
    String id = delivery.message().id();
    if (transientFailure && delivery.attempt() < attempts()) {
      long delay = delaysSeconds.get(Math.max(0, delivery.attempt() - 1));
      count(queue, "retried");
      if (OutageLog.isOutage(e)) {
        outage(queue).failed(e, attempt);
        LOG.debug(
            "Message retried: queue={} id={} attempt={} of {} in={}s code={} reason={}",
            queue,
            id,
            delivery.attempt(),
            attempts(),
            delay,
            code,
            reason);
      } else {
        LOG.warn(
            "Message retried: queue={} id={} attempt={} of {} in={}s code={} reason={}",
            queue,
            id,
            delivery.attempt(),
            attempts(),
            delay,
            code,
            reason);
        note(delivery, code, reason == null ? e.getClass().getName() : reason, e);
      }
      return new Verdict.Retry(Duration.ofSeconds(delay));
    }
    String why = reason == null ? e.getClass().getName() : reason;
    Optional<Verdict> notYet = announce(delivery, attempt, code, why, e);
    if (notYet.isPresent()) return notYet.get();
    count(queue, "parked");
    LOG.error(
        "Message parked: queue={} id={} attempts={} code={} reason={}",
        queue,
        id,
        delivery.attempt(),
        code,
        reason,
        e);
    return new Verdict.Park(code, why);
  }

  /**
   * Notes a failure that is retried in the message's {@code system.messages} record, for an
   * operator who later finds it parked: best effort, since the retry is the verdict either way (a
   * failure to note it is logged, and the next failure or the parking notes theirs).
   */
  private void note(Delivery delivery, String code, String reason, Throwable cause) {
    if (SystemMessages.own(delivery.message())) return;
    try {
      announced.failed(delivery, code, reason, cause);
    } catch (RuntimeException x) {
      LOG.debug(
          "A failure of message {} of {} could not be noted in {}",
          delivery.message().id(),
          delivery.queue(),
          SystemMessages.LABEL,
          x);
    }
  }

  /**
   * Removes the failures noted of a delivery that went through after a retry: best effort, the
   * verdict is done either way (a record left is one row, shown to nobody since nothing is parked).
   */
  private void forget(Delivery delivery) {
    if (SystemMessages.own(delivery.message())) return;
    try {
      announced.succeeded(delivery);
    } catch (RuntimeException x) {
      LOG.debug(
          "The failures noted of message {} of {} could not be forgotten in {}",
          delivery.message().id(),
          delivery.queue(),
          SystemMessages.LABEL,
          x);
    }
  }

  /**
   * Commits the parking in {@code system.messages} before the park verdict: empty once it is
   * committed (or was before, or the message is a {@code system.messages} event, whose parking is
   * only logged); a retry when it could not be committed, since a parking nobody hears of is lost.
   */
  private Optional<Verdict> announce(
      Delivery delivery, long attempt, String code, String reason, Throwable cause) {
    if (SystemMessages.own(delivery.message())) {
      LOG.error(
          "Message of {} parked and not announced (a failing receiver of its events would announce its own parking forever): queue={} id={}",
          SystemMessages.LABEL,
          delivery.queue(),
          delivery.message().id());
      return Optional.empty();
    }
    try {
      announced.parked(delivery, code, reason, cause);
      return Optional.empty();
    } catch (RuntimeException x) {
      long delay = delaysSeconds.isEmpty() ? 1 : delaysSeconds.get(delaysSeconds.size() - 1);
      count(delivery.queue(), "retried");
      if (OutageLog.isOutage(x)) outage(delivery.queue()).failed(x, attempt);
      else
        LOG.warn(
            "Message not parked yet, its parking could not be recorded in {}: queue={} id={} in={}s",
            SystemMessages.LABEL,
            delivery.queue(),
            delivery.message().id(),
            delay,
            x);
      return Optional.of(new Verdict.Retry(Duration.ofSeconds(delay)));
    }
  }

  /**
   * Records the time from the message's commit to now; a clock behind the committer's counts as no
   * lag. A message without a readable commit time (one sent before the header existed) is left out.
   */
  private void lag(Delivery delivery) {
    String committed = delivery.message().headers().get(Announcements.COMMITTED);
    if (committed == null) return;
    long at;
    try {
      at = Long.parseLong(committed);
    } catch (NumberFormatException e) {
      return;
    }
    meters
        .timer(LAG_TIMER, "queue", delivery.queue())
        .record(Math.max(0, clock.millis() - at), TimeUnit.MILLISECONDS);
  }

  private OutageLog outage(String queue) {
    return outages.computeIfAbsent(queue, q -> new OutageLog(LOG, "Deliveries of queue " + q));
  }

  private void count(String queue, String outcome) {
    meters.counter("toa.messages", "queue", queue, "outcome", outcome).increment();
  }
}
