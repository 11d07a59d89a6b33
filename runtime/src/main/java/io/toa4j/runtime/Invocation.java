package io.toa4j.runtime;

import io.toa4j.api.Query;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One call of one operation as the engine sees it.
 *
 * @param query the query, if the request has one
 * @param input the input as a tree; a missing node when the request has none
 * @param identity the call's identity: the same on every delivery of the same call
 */
record Invocation(Optional<Query> query, JsonNode input, String identity) {}
