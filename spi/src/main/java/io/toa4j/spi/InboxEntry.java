package io.toa4j.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The answer to one call of an operation that declares {@code once}, committed with the change the
 * call made, so the same call arriving again is answered with it instead of running again.
 *
 * @param identity the call's identity
 * @param reply the answer the call got, as JSON
 * @param expires epoch milliseconds after which the call is forgotten
 */
public record InboxEntry(String identity, JsonNode reply, long expires) {
  public InboxEntry {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(reply, "reply");
  }
}
