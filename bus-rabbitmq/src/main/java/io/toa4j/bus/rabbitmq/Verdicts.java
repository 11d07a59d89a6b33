package io.toa4j.bus.rabbitmq;

import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Verdict;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * Makes a verdict durable before its delivery is acknowledged: a retry is a confirmed copy with the
 * next attempt number, on the queue itself when due now or on its retry queue with the delay as the
 * copy's expiration; a park is a confirmed copy on the parked queue with the code, reason,
 * attempts, queue and time as headers. Every failing verdict's copy carries when the message first
 * failed ({@value Codec#FIRST_FAILED}), kept from the delivery's copy or set now. {@code Done}
 * needs nothing. A verdict is settled on the handler's thread once the handler returned, so its
 * copy is published there ({@link Channels#publishFromBus}). Thread-safe.
 */
final class Verdicts {
  /** The delay after a handler throws or answers nothing. */
  static final Duration AFTER_FAILURE = Duration.ofSeconds(1);

  private final Channels channels;
  private final Clock clock;

  Verdicts(Channels channels, Clock clock) {
    this.channels = channels;
    this.clock = clock;
  }

  void settle(Delivery delivery, Verdict verdict)
      throws IOException, InterruptedException, TimeoutException {
    Message message = delivery.message();
    byte[] body = Codec.body(message);
    long now = clock.millis();
    if (verdict instanceof Verdict.Retry retry && retry.delay().toMillis() == 0) {
      channels.publishFromBus(
          "",
          delivery.queue(),
          Codec.properties(message, delivery.attempt() + 1, Codec.failed(delivery, now), null),
          body);
    } else if (verdict instanceof Verdict.Retry retry) {
      channels.publishFromBus(
          "",
          Topology.retryQueue(delivery.queue()),
          Codec.properties(
              message,
              delivery.attempt() + 1,
              Codec.failed(delivery, now),
              Long.toString(retry.delay().toMillis())),
          body);
    } else if (verdict instanceof Verdict.Park park) {
      Map<String, Object> facts =
          Map.of(
              Codec.PARKED_ID, UUID.randomUUID().toString(),
              Codec.QUEUE, delivery.queue(),
              Codec.CODE, park.code(),
              Codec.REASON, park.reason(),
              Codec.ATTEMPTS, delivery.attempt(),
              Codec.PARKED_AT, now,
              Codec.FIRST_FAILED, delivery.firstFailed().orElse(now));
      channels.publishFromBus(
          "", Topology.PARKED, Codec.properties(message, delivery.attempt(), facts, null), body);
    }
  }
}
