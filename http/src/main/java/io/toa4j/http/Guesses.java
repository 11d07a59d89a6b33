package io.toa4j.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wrong passwords counted per name and per client address, so a guessing client is slowed and then
 * stopped before it costs the gateway a derivation, while other names and addresses are served as
 * before.
 *
 * <p>Each key (a name, or an address: IPv4 whole, IPv6 by its /64, which one host usually holds
 * whole) has a window that opens at its first wrong password and lasts {@code window}; within it,
 * the n-th wrong password is answered after {@link #delay} (n−1) × 250 ms, at most 2 s, scheduled
 * without holding a thread; from the {@code limit}-th on, the key is {@link #blocked} until the
 * window ends, and no derivation runs for it. A right password closes its name's window (not its
 * address's: a client that knows one password must not clear the count of its guesses at others).
 * At most {@value #KEYS} keys per kind are kept, least recently used out first.
 *
 * <p>Derivations are bounded server-wide too: at most one per core runs at once; a verification
 * that waits longer than {@link #QUEUE_WAIT} for its turn is answered 503. Thread-safe.
 */
final class Guesses {
  static final int KEYS = 100_000;
  static final Duration STEP = Duration.ofMillis(250);
  static final Duration MAX_DELAY = Duration.ofSeconds(2);
  static final Duration QUEUE_WAIT = Duration.ofSeconds(5);

  private final int nameLimit;
  private final int addressLimit;
  private final Duration window;
  private final Clock clock;
  private final Cache<String, Window> names;
  private final Cache<String, Window> addresses;
  private final Semaphore derivations =
      new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors()), true);

  /** The failures of one key since its window opened. */
  private record Window(long opened, int failures) {}

  Guesses(int nameLimit, int addressLimit, Duration window, Clock clock) {
    this.nameLimit = nameLimit;
    this.addressLimit = addressLimit;
    this.window = window;
    this.clock = clock;
    this.names = cache();
    this.addresses = cache();
  }

  private Cache<String, Window> cache() {
    long windowNanos = window.toNanos();
    return Caffeine.newBuilder()
        .maximumSize(KEYS)
        .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
        .expireAfter(
            new Expiry<String, Window>() {
              @Override
              public long expireAfterCreate(String key, Window value, long now) {
                return windowNanos;
              }

              @Override
              public long expireAfterUpdate(String key, Window value, long now, long left) {
                return left; // the window is counted from its first failure
              }

              @Override
              public long expireAfterRead(String key, Window value, long now, long left) {
                return left;
              }
            })
        .build();
  }

  /** How long the name or the address must wait before its next try; empty when it may try now. */
  Optional<Duration> blocked(String name, String address) {
    Duration wait = Duration.ZERO;
    Window byName = names.getIfPresent(name);
    if (byName != null && byName.failures() >= nameLimit) wait = left(byName);
    Window byAddress = addresses.getIfPresent(address);
    if (byAddress != null
        && byAddress.failures() >= addressLimit
        && left(byAddress).compareTo(wait) > 0) wait = left(byAddress);
    return wait.isZero() ? Optional.empty() : Optional.of(wait);
  }

  /**
   * Counts a wrong password; how long to hold its 401, longer as the failures of either key grow.
   */
  Duration failed(String name, String address) {
    long now = clock.millis();
    int byName =
        names
            .asMap()
            .merge(
                name,
                new Window(now, 1),
                (old, one) -> new Window(old.opened(), old.failures() + 1))
            .failures();
    int byAddress =
        addresses
            .asMap()
            .merge(
                address,
                new Window(now, 1),
                (old, one) -> new Window(old.opened(), old.failures() + 1))
            .failures();
    return delay(Math.max(byName, byAddress));
  }

  /** A right password for the name: its window closes. */
  void succeeded(String name) {
    names.invalidate(name);
  }

  /**
   * The hold of the n-th wrong password in a window: (n−1) × {@link #STEP}, at most {@link
   * #MAX_DELAY}.
   */
  static Duration delay(int failures) {
    Duration delay = STEP.multipliedBy(Math.max(0, failures - 1));
    return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
  }

  /**
   * Runs a verification when a derivation may start within {@link #QUEUE_WAIT}.
   *
   * @throws Problem 503 with {@code retry-after} when the server is busy deriving for others
   */
  <T> T derive(java.util.function.Supplier<T> verification) {
    boolean acquired;
    try {
      acquired = derivations.tryAcquire(QUEUE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      acquired = false;
    }
    if (!acquired)
      throw new Problem(
          503,
          "BUSY",
          "the gateway is verifying too many passwords at once; try again in a second, or use a bearer token");
    try {
      return verification.get();
    } finally {
      derivations.release();
    }
  }

  /** The key of a client's address: IPv4 whole, IPv6 by its first 64 bits. */
  static String address(SocketAddress remote) {
    if (!(remote instanceof InetSocketAddress socket) || socket.getAddress() == null)
      return String.valueOf(remote);
    InetAddress address = socket.getAddress();
    if (address instanceof Inet6Address)
      return HexFormat.of().formatHex(Arrays.copyOf(address.getAddress(), 8)) + "::/64";
    return address.getHostAddress();
  }

  private Duration left(Window w) {
    long left = w.opened() + window.toMillis() - clock.millis();
    return Duration.ofMillis(Math.max(1, left));
  }
}
