package io.toa4j.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer to one call of an operation that declares {@code once}, committed with the change the
 * call made, so the same call arriving again is answered with it instead of running again.
 *
 * @param identity the call's identity
 * @param reply the answer the call got, as JSON
 * @param expires epoch milliseconds after which the call is forgotten
 * @param fingerprint what the call asked for, as the engine digests it, so that the identity used
 *     again for a different request can be told from a repeat; empty for an entry recorded before
 *     stores kept it
 */
public record InboxEntry(String identity, Json reply, long expires, Optional<String> fingerprint) {
  public InboxEntry {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(reply, "reply");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** An entry without a fingerprint. */
  public InboxEntry(String identity, Json reply, long expires) {
    this(identity, reply, expires, Optional.empty());
  }
}
