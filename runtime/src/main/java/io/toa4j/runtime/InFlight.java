package io.toa4j.runtime;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The call identities being answered now through one edge of this process (the HTTP gateway, the
 * calls a host takes from the bus). A second call with the same identity, arriving before the first
 * is answered, waits for it (at most a bound) and then goes on as a retry made after the first
 * answer would: the operation's inbox answers it, and the operation runs once. In this process
 * only: across processes the inbox answers the twin with the winner's reply. Holds one entry per
 * call in progress, so it stays as small as the load.
 *
 * <p>Thread-safe.
 */
public final class InFlight {
  private final ConcurrentHashMap<String, CompletableFuture<Void>> identities =
      new ConcurrentHashMap<>();

  /**
   * Takes the identity for one call, waiting while another call holds it, at most {@code wait};
   * {@code waiting} is told once when this call starts to wait.
   *
   * @return false when the other call still holds it after {@code wait}: nothing is taken
   */
  public boolean take(String identity, Duration wait, Runnable waiting) {
    long deadline = System.nanoTime() + wait.toNanos();
    boolean told = false;
    CompletableFuture<Void> mine = new CompletableFuture<>();
    while (true) {
      CompletableFuture<Void> held = identities.putIfAbsent(identity, mine);
      if (held == null) return true;
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      if (!told) {
        waiting.run();
        told = true;
      }
      try {
        held.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (ExecutionException e) {
        throw new IllegalStateException(e); // never: released only by complete(null)
      }
    }
  }

  /** Gives the identity back once its call is answered, waking the calls that wait for it. */
  public void release(String identity) {
    CompletableFuture<Void> held = identities.remove(identity);
    if (held != null) held.complete(null);
  }
}
