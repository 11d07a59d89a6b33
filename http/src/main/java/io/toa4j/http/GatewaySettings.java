package io.toa4j.http;

import io.toa4j.idempotency.IdempotentCalls;
import java.time.Duration;
import java.util.Objects;

/**
 * How the gateway guards itself: the body limit, how slowly a client may send, how many wrong
 * passwords it takes before a name or an address waits, the role that reads the metrics and the
 * role that uses the operator console. Immutable; {@link #defaults()} are the values {@code toa
 * run} uses, each checked when set.
 *
 * @param maxBody the largest request body read, in bytes (413 above); 1 MiB by default
 * @param headerTimeout how long a request's line and headers may take to arrive, from their first
 *     byte; the connection is closed after it. Also the grace a body has before its rate counts. 5
 *     s by default
 * @param minBodyRate the average rate, in bytes per second, below which a body that is still
 *     arriving after the grace is refused with 408 and its connection closed; 1,024 by default
 * @param idleTimeout how long a connection may stay silent (between requests, or in the middle of
 *     one) before it is closed; 30 s by default
 * @param nameGuesses wrong passwords for one name within {@code guessWindow} after which Basic
 *     credentials for that name are answered 429 until the window ends; 5 by default
 * @param addressGuesses wrong passwords from one client address (an IPv6 address by its /64) within
 *     {@code guessWindow} after which its Basic credentials are answered 429; 20 by default
 * @param guessWindow the window counted from the first wrong password; 15 minutes by default
 * @param metricsRole the role scope an identity must hold (or hold one covering it) to read {@code
 *     /.toa/metrics}; {@code toa:metrics} by default
 * @param attach how long a request whose {@code Idempotency-Key} is being answered waits for that
 *     answer before it is refused with 409; 5 s by default, zero to refuse at once
 * @param operatorRole the role scope an identity must hold (or hold one covering it) to read the
 *     operator console's data at {@code /.toa/console/} and act on it; {@code toa:operator} by
 *     default
 */
public record GatewaySettings(
    int maxBody,
    Duration headerTimeout,
    int minBodyRate,
    Duration idleTimeout,
    int nameGuesses,
    int addressGuesses,
    Duration guessWindow,
    String metricsRole,
    Duration attach,
    String operatorRole) {

  /** The largest body accepted by default: 1 MiB. */
  public static final int DEFAULT_MAX_BODY = 1 << 20;

  /** The role that reads {@code /.toa/metrics} by default. */
  public static final String DEFAULT_METRICS_ROLE = "toa:metrics";

  /** The role that uses the console at {@code /.toa/console/} by default. */
  public static final String DEFAULT_OPERATOR_ROLE = "toa:operator";

  /**
   * Checks every value.
   *
   * @throws IllegalArgumentException naming the setting, its value and what it must be
   */
  public GatewaySettings {
    Objects.requireNonNull(headerTimeout, "headerTimeout");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(guessWindow, "guessWindow");
    Objects.requireNonNull(metricsRole, "metricsRole");
    Objects.requireNonNull(attach, "attach");
    Objects.requireNonNull(operatorRole, "operatorRole");
    if (attach.isNegative())
      throw new IllegalArgumentException("attach must be zero or more; got " + attach);
    positive("maxBody", maxBody);
    positive("minBodyRate", minBodyRate);
    positive("nameGuesses", nameGuesses);
    positive("addressGuesses", addressGuesses);
    atLeastASecondTenth("headerTimeout", headerTimeout);
    atLeastASecondTenth("idleTimeout", idleTimeout);
    atLeastASecondTenth("guessWindow", guessWindow);
    scope("metricsRole", metricsRole, DEFAULT_METRICS_ROLE);
    scope("operatorRole", operatorRole, DEFAULT_OPERATOR_ROLE);
  }

  /** The defaults, as documented on each component. */
  public static GatewaySettings defaults() {
    return new GatewaySettings(
        DEFAULT_MAX_BODY,
        Duration.ofSeconds(5),
        1024,
        Duration.ofSeconds(30),
        5,
        20,
        Duration.ofMinutes(15),
        DEFAULT_METRICS_ROLE,
        IdempotentCalls.DEFAULT_ATTACH,
        DEFAULT_OPERATOR_ROLE);
  }

  public GatewaySettings withMaxBody(int bytes) {
    return new GatewaySettings(
        bytes,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        nameGuesses,
        addressGuesses,
        guessWindow,
        metricsRole,
        attach,
        operatorRole);
  }

  public GatewaySettings withSlowClients(
      Duration headerTimeout, int minBodyRate, Duration idleTimeout) {
    return new GatewaySettings(
        maxBody,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        nameGuesses,
        addressGuesses,
        guessWindow,
        metricsRole,
        attach,
        operatorRole);
  }

  public GatewaySettings withGuesses(int perName, int perAddress, Duration window) {
    return new GatewaySettings(
        maxBody,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        perName,
        perAddress,
        window,
        metricsRole,
        attach,
        operatorRole);
  }

  public GatewaySettings withMetricsRole(String scope) {
    return new GatewaySettings(
        maxBody,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        nameGuesses,
        addressGuesses,
        guessWindow,
        scope,
        attach,
        operatorRole);
  }

  public GatewaySettings withAttach(Duration wait) {
    return new GatewaySettings(
        maxBody,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        nameGuesses,
        addressGuesses,
        guessWindow,
        metricsRole,
        wait,
        operatorRole);
  }

  public GatewaySettings withOperatorRole(String scope) {
    return new GatewaySettings(
        maxBody,
        headerTimeout,
        minBodyRate,
        idleTimeout,
        nameGuesses,
        addressGuesses,
        guessWindow,
        metricsRole,
        attach,
        scope);
  }

  private static void scope(String name, String value, String example) {
    if (!Scopes.valid(value)) {
      throw new IllegalArgumentException(
          name
              + " '"
              + value
              + "' is not a role scope; write levels of letters, digits, '_' or '-'"
              + " separated by ':', such as "
              + example);
    }
  }

  private static void positive(String name, int value) {
    if (value < 1) throw new IllegalArgumentException(name + " must be at least 1; got " + value);
  }

  private static void atLeastASecondTenth(String name, Duration value) {
    if (value.compareTo(Duration.ofMillis(100)) < 0)
      throw new IllegalArgumentException(name + " must be at least 100 ms; got " + value);
  }
}
