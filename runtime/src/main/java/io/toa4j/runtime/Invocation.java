package io.toa4j.runtime;

import io.toa4j.api.Query;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One call of one operation as the engine sees it.
 *
 * @param query the query, if the request has one; once its criteria found the record it acts on,
 *     with that record's id
 * @param input the input as a tree; a missing node when the request has none
 * @param identity the call's identity: the same on every delivery of the same call
 * @param asked the query as the caller wrote it, which the call's fingerprint is made of: a repeat
 *     whose criteria would find another record now is still the same request
 */
record Invocation(Optional<Query> query, JsonNode input, String identity, Optional<Query> asked) {
  Invocation(Optional<Query> query, JsonNode input, String identity) {
    this(query, input, identity, query);
  }

  /** The call acting on the record its criteria found. */
  Invocation found(String id) {
    return new Invocation(query.map(q -> q.withId(id)), input, identity, asked);
  }
}
