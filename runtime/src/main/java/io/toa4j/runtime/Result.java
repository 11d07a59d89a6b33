package io.toa4j.runtime;

import io.toa4j.api.Refusal;
import tools.jackson.databind.JsonNode;

/** What the engine answers when the call does not fail. */
sealed interface Result {
  /**
   * A value as a tree; a missing node for nothing.
   *
   * @param replayed whether the operation's inbox answered it, recorded by an earlier run of the
   *     same call, rather than this run
   */
  record Output(JsonNode value, boolean replayed) implements Result {
    Output(JsonNode value) {
      this(value, false);
    }
  }

  record Refused(Refusal refusal) implements Result {}
}
