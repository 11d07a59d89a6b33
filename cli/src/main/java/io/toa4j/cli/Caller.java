package io.toa4j.cli;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.util.Optional;

/** Makes a call: what the control channel serves and what {@code toa call} uses in-process. */
@FunctionalInterface
interface Caller {
  /**
   * Calls an operation.
   *
   * @param identity the call's identity; when absent the application mints a fresh one
   * @throws io.toa4j.api.Failure when the call fails; nothing was committed
   */
  Reply call(String endpoint, Request request, Optional<String> identity);

  /** Calls into a booted application. */
  static Caller of(io.toa4j.runtime.Toa application) {
    return (endpoint, request, identity) ->
        identity.isPresent()
            ? application.call(endpoint, request, identity.get())
            : application.call(endpoint, request);
  }
}
