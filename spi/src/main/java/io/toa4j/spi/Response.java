package io.toa4j.spi;

import java.time.Duration;
import java.util.Objects;

/** What became of a {@link Bus.Calls#request}: answered, nobody to ask, or no answer in time. */
public sealed interface Response {
  /** A responder answered; the call ran (once, or more when its host died mid-call). */
  record Answered(Message reply) implements Response {
    public Answered {
      Objects.requireNonNull(reply, "reply");
    }
  }

  /** Nobody serves the queue: the call was not sent, so it never runs. */
  record Unserved(String queue) implements Response {
    public Unserved {
      Objects.requireNonNull(queue, "queue");
    }
  }

  /**
   * No answer came in time. The call may have run, may be running, or may never run: the bus drops
   * it once the caller stopped waiting, unless a responder already holds it.
   */
  record Unanswered(Duration waited) implements Response {
    public Unanswered {
      Objects.requireNonNull(waited, "waited");
    }
  }
}
