package io.toa4j.bus.rabbitmq;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The bus's settings, read once from {@code BusSettings.options()} and the environment.
 *
 * @param url the broker's AMQP URL, password included; never printed (see {@link #where()})
 * @param source where the URL came from, for messages
 * @param heartbeat the AMQP heartbeat timeout each connection asks for, in whole seconds: the
 *     broker closes a connection it heard nothing from for two to three times this, and gives its
 *     unacknowledged deliveries to other consumers; the client gives up on it after about twice
 *     this and recovers
 */
record Tuning(
    String url,
    String source,
    int prefetch,
    Duration confirmTimeout,
    Duration closeTimeout,
    int heartbeat) {
  static final String URL = "url";
  static final String PREFETCH = "prefetch";
  static final String CONFIRM_TIMEOUT = "confirm-timeout-ms";
  static final String CLOSE_TIMEOUT = "close-timeout-ms";
  static final String HEARTBEAT = "heartbeat-seconds";

  /**
   * A connection gone quiet is closed by the broker within 2 to 3 heartbeats ({@code
   * rabbit_heartbeat} checks every heartbeat and gives up after two checks with nothing received):
   * with 2 s, what a silently cut-off process held is handed to others within 6 s.
   */
  static final int DEFAULT_HEARTBEAT = 2;

  static final String ENV = "TOA_RABBITMQ_URL";
  static final String DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672";
  private static final Set<String> KNOWN =
      Set.of(URL, PREFETCH, CONFIRM_TIMEOUT, CLOSE_TIMEOUT, HEARTBEAT);

  static Tuning from(Map<String, String> options, Map<String, String> env) {
    for (String key : options.keySet()) {
      if (!KNOWN.contains(key)) {
        throw new IllegalArgumentException(
            "Unknown rabbitmq bus option '" + key + "'; known options: " + new TreeSet<>(KNOWN));
      }
    }
    String url = options.get(URL);
    String source = "option " + URL;
    if (url == null && env.get(ENV) != null && !env.get(ENV).isBlank()) {
      url = env.get(ENV);
      source = "environment variable " + ENV;
    }
    if (url == null) {
      url = DEFAULT_URL;
      source = "the default";
    }
    return new Tuning(
        url,
        source,
        (int) number(options, PREFETCH, 16, 1, 65_535),
        Duration.ofMillis(number(options, CONFIRM_TIMEOUT, 5_000, 1, 3_600_000)),
        Duration.ofMillis(number(options, CLOSE_TIMEOUT, 10_000, 0, 3_600_000)),
        (int) number(options, HEARTBEAT, DEFAULT_HEARTBEAT, 1, 600));
  }

  /** The URL without its password, as messages show it. */
  String where() {
    try {
      URI uri = new URI(url);
      String user = uri.getUserInfo() == null ? "" : uri.getUserInfo().split(":", 2)[0] + "@";
      String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
      String path = uri.getRawPath() == null ? "" : uri.getRawPath();
      return uri.getScheme() + "://" + user + uri.getHost() + port + path;
    } catch (URISyntaxException | RuntimeException e) {
      return "(a URL that cannot be parsed, from " + source + ")";
    }
  }

  @Override
  public String toString() { // records print every field; this one must not print the password
    return "Tuning["
        + where()
        + " from "
        + source
        + ", prefetch="
        + prefetch
        + ", heartbeat="
        + heartbeat
        + " s]";
  }

  private static long number(
      Map<String, String> options, String key, long fallback, long min, long max) {
    String text = options.get(key);
    if (text == null) return fallback;
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "The rabbitmq bus option " + key + " must be a whole number, not '" + text + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "The rabbitmq bus option "
              + key
              + " must be from "
              + min
              + " to "
              + max
              + ", not "
              + value);
    }
    return value;
  }
}
