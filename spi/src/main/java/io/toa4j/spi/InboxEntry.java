package io.toa4j.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer to one call of an operation that declares {@code once}, committed with the change the
 * call made, so the same call arriving again is answered with it instead of running again; and,
 * after the answer's window, the compact record that the call was answered, so a repeat arriving
 * later still is told so instead of running again.
 *
 * @param identity the call's identity
 * @param reply the answer the call got, as JSON, while it is the answer: empty once it expired
 * @param expires epoch milliseconds after which the answer is no longer given
 * @param fingerprint what the call asked for, as the engine digests it, so that the identity used
 *     again for a different request can be told from a repeat; empty for an entry recorded before
 *     stores kept it
 * @param answered epoch milliseconds the call was answered (its commit); 0 for an entry recorded
 *     before stores kept it
 * @param forgotten epoch milliseconds after which nothing of the call is kept, not before {@code
 *     expires}: from then on its identity is new
 * @param record the id of the record the call wrote
 */
public record InboxEntry(
    String identity,
    Optional<Json> reply,
    long expires,
    Optional<String> fingerprint,
    long answered,
    long forgotten,
    Optional<String> record) {
  public InboxEntry {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(reply, "reply");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(record, "record");
    if (forgotten < expires) {
      throw new IllegalArgumentException(
          "an inbox entry is forgotten after its answer expires: " + forgotten + " < " + expires);
    }
  }

  /** An entry with an answer and a fingerprint, forgotten when its answer expires. */
  public InboxEntry(String identity, Json reply, long expires, Optional<String> fingerprint) {
    this(identity, Optional.of(reply), expires, fingerprint, 0, expires, Optional.empty());
  }

  /** An entry with an answer and no fingerprint, forgotten when its answer expires. */
  public InboxEntry(String identity, Json reply, long expires) {
    this(identity, reply, expires, Optional.empty());
  }

  /** This entry as a store answers it at {@code now}: without its reply once the reply expired. */
  public InboxEntry at(long now) {
    return expires > now || reply.isEmpty()
        ? this
        : new InboxEntry(
            identity, Optional.empty(), expires, fingerprint, answered, forgotten, record);
  }
}
