package io.toa4j.spi;

import java.time.Duration;
import java.util.Objects;

/** What a consumer decided about a delivery; the bus acts on it durably. */
public sealed interface Verdict {
  /** Handled (committed, or refused): the message is removed. */
  record Done() implements Verdict {}

  /** Failed for now: deliver it again after the delay. */
  record Retry(Duration delay) implements Verdict {
    public Retry {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative())
        throw new IllegalArgumentException("a retry delay is never negative: " + delay);
    }
  }

  /** Failed for good: keep it aside with its reason until someone replays it. */
  record Park(String code, String reason) implements Verdict {
    public Park {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(reason, "reason");
    }
  }

  Verdict DONE = new Done();
}
