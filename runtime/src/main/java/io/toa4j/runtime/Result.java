package io.toa4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.toa4j.api.Refusal;

/** What the engine answers when the call does not fail. */
sealed interface Result {
  /** A value as a tree; a missing node for nothing. */
  record Output(JsonNode value) implements Result {}

  record Refused(Refusal refusal) implements Result {}
}
