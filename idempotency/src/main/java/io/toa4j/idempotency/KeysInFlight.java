package io.toa4j.idempotency;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The call identities whose request is being answered now, so that a second request with
 * the same key, arriving before the first is answered, is told so (409) instead of waiting or
 * racing it. In this process only: across processes the inbox answers the twin with the winner's
 * reply. Holds one entry per request in progress, so it stays as small as the load.
 *
 * <p>Thread-safe.
 */
final class KeysInFlight {
  private final Set<String> identities = ConcurrentHashMap.newKeySet();

  /** Takes the identity for one request; false when another request holds it. */
  boolean take(String identity) {
    return identities.add(identity);
  }

  /** Gives the identity back once its request is answered. */
  void release(String identity) {
    identities.remove(identity);
  }
}
