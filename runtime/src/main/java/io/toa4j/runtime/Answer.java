package io.toa4j.runtime;

import io.toa4j.api.Reply;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A reply, with what an edge needs to tell its caller about repeats.
 *
 * @param reply what the operation answered
 * @param replayed true when the operation's inbox answered it, recorded by an earlier copy of the
 *     same call, and the operation did not run for this one
 * @param retention how long the operation remembers a call's answer ({@code once}); empty when it
 *     does not declare once, so a repeat of the call runs again
 */
public record Answer(Reply reply, boolean replayed, Optional<Duration> retention) {
  public Answer {
    Objects.requireNonNull(reply, "reply");
    Objects.requireNonNull(retention, "retention");
  }
}
