package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import java.util.Map;

/** What the suites read of a reply. */
final class Outputs {
  private Outputs() {}

  /** The output of a reply that must be one, as the JSON object it is. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> of(Reply reply) {
    assertThat(reply).isInstanceOf(Reply.Output.class);
    return (Map<String, Object>) ((Reply.Output) reply).value().orElseThrow();
  }
}
