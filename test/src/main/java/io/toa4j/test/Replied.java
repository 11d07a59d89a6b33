package io.toa4j.test;

import io.toa4j.api.Reply;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AssertProvider;

/**
 * What a call of a scenario answered: {@code assertThat(toa.call(...)).has("balance", 5000)}, or
 * {@code .isRefused("INSUFFICIENT_FUNDS")}. A call that fails throws its {@link
 * io.toa4j.api.Failure} instead.
 *
 * @param endpoint the operation called, {@code namespace.name.operation}
 * @param identity the call's identity
 * @param reply the output or the refusal
 * @param replayed whether the operation's inbox answered it: the same identity was answered before
 */
public record Replied(String endpoint, String identity, Reply reply, boolean replayed)
    implements AssertProvider<ReplyAssert> {
  /**
   * The output's value, when the call was not refused: a record as a map, or what the operation
   * returned.
   */
  public Optional<Object> value() {
    return reply instanceof Reply.Output output ? output.value() : Optional.empty();
  }

  /** The output's properties when it is an object (a record, a map); else empty. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> properties() {
    return value().filter(Map.class::isInstance).map(v -> (Map<String, Object>) v).orElse(Map.of());
  }

  @Override
  public ReplyAssert assertThat() {
    return new ReplyAssert(this);
  }
}
