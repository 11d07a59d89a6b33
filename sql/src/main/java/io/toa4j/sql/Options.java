package io.toa4j.sql;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the server storages take alike from a context's storage options: the options they know,
 * refused by name otherwise; the pool's size; the statement timeout; and passwords hidden from
 * every text they may hide in. Each check names the engine ({@code postgres}, {@code mariadb}) as
 * the context states it. Stateless.
 */
public final class Options {
  public static final String POOL_SIZE = "pool-size";
  public static final int DEFAULT_POOL_SIZE = 10;
  public static final String STATEMENT_TIMEOUT = "statement-timeout-seconds";
  public static final int DEFAULT_STATEMENT_SECONDS = 6;
  public static final int MAX_STATEMENT_SECONDS = 86_400;

  /** The options every server storage takes. */
  public static final Set<String> KNOWN =
      Set.of("url", "user", "password", POOL_SIZE, STATEMENT_TIMEOUT);

  /**
   * A password in a URL: {@code password=...} as a parameter, or {@code user:...@} before a host.
   */
  private static final Pattern URL_PASSWORD =
      Pattern.compile("(?i)(password=)[^&;\\s]*|(//[^/:@\\s]+:)[^@/\\s]*(@)");

  private Options() {}

  /** Refuses an option the storage does not take, by name, listing those it takes. */
  public static void known(String engine, Map<String, String> options) {
    for (String key : options.keySet()) {
      if (!KNOWN.contains(key)) {
        throw new IllegalArgumentException(
            "The "
                + engine
                + " storage has no option '"
                + key
                + "'; it takes "
                + new TreeSet<>(KNOWN)
                + " (anything the driver understands goes in the url)");
      }
    }
  }

  /**
   * The pool's size from its option, else the default; a clear error for anything but 1 to 1000.
   */
  public static int poolSize(String engine, String text) {
    return whole(engine, POOL_SIZE, text, DEFAULT_POOL_SIZE, 1000, "connections");
  }

  /**
   * The statement timeout from its option, else the default; a clear error for anything but 1 to
   * 86400.
   */
  public static int statementSeconds(String engine, String text) {
    return whole(
        engine,
        STATEMENT_TIMEOUT,
        text,
        DEFAULT_STATEMENT_SECONDS,
        MAX_STATEMENT_SECONDS,
        "seconds");
  }

  private static int whole(
      String engine, String option, String text, int fallback, int most, String unit) {
    if (text == null) return fallback;
    try {
      int value = Integer.parseInt(text.strip());
      if (value >= 1 && value <= most) return value;
    } catch (NumberFormatException e) {
      // refused below, with the rule
    }
    throw new IllegalArgumentException(
        "The "
            + engine
            + " storage option "
            + option
            + " is '"
            + text
            + "'; it must be a whole number of "
            + unit
            + " from 1 to "
            + most
            + " (default "
            + fallback
            + ")");
  }

  /** The value stripped, empty when missing or blank. */
  public static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  /** The text with the password, and any password written in a URL, replaced by stars. */
  public static String mask(String text, Optional<String> password) {
    String masked = text == null ? "" : text;
    if (password.isPresent()) masked = masked.replace(password.get(), "****");
    return URL_PASSWORD.matcher(masked).replaceAll(m -> m.group(1) != null ? "$1****" : "$2****$3");
  }
}
