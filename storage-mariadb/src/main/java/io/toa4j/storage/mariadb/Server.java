package io.toa4j.storage.mariadb;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which MariaDB server and database to use and as whom, from a context's storage options, else
 * the environment, else the local default. The password is never shown: {@link #toString()} and
 * {@link #mask(String)} hide it wherever it may hide (the option, or the URL itself).
 *
 * @param url a JDBC URL naming a database, {@code jdbc:mariadb://host:port/database}
 * @param user the user to log in as; empty to let the URL (or the driver's default) decide
 * @param password empty for none
 * @param timeouts how long a statement may run, and from it how long a connection may stay quiet
 */
record Server(String url, Optional<String> user, Optional<String> password, int poolSize, Timeouts timeouts) {
  static final String ENVIRONMENT = "TOA_MARIADB_URL";
  static final String DEFAULT_URL = "jdbc:mariadb://127.0.0.1:3306/test";
  static final String DEFAULT_USER = "root";

  /** A password in a URL: {@code password=...} as a parameter, or {@code user:...@} before a host. */
  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;\\s]*|(//[^/:@\\s]+:)[^@/\\s]*(@)");
  /** A URL with a database after its hosts: {@code jdbc:mariadb:[mode:]//hosts/database[?...]}. */
  private static final Pattern WITH_DATABASE = Pattern.compile("jdbc:mariadb:(?:[a-z]+:)?//[^/?]*/[^/?;&\\s]+([?].*)?");

  static final String POOL_SIZE = "pool-size";
  static final int DEFAULT_POOL_SIZE = 10;
  private static final Set<String> KNOWN = Set.of("url", "user", "password", POOL_SIZE, Timeouts.OPTION);

  static Server from(Map<String, String> options, Map<String, String> environment) {
    for (String key : options.keySet()) {
      if (!KNOWN.contains(key)) {
        throw new IllegalArgumentException(
            "The mariadb storage has no option '" + key + "'; it takes " + new TreeSet<>(KNOWN)
                + " (anything the driver understands goes in the url)");
      }
    }
    int poolSize = poolSize(options.get(POOL_SIZE));
    Timeouts timeouts = Timeouts.from(options.get(Timeouts.OPTION));
    Optional<String> user = nonBlank(options.get("user"));
    Optional<String> password = nonBlank(options.get("password"));
    Optional<String> url = nonBlank(options.get("url")).or(() -> nonBlank(environment.get(ENVIRONMENT)));
    if (url.isPresent()) {
      if (!WITH_DATABASE.matcher(url.get()).matches()) {
        throw new IllegalArgumentException(
            "The mariadb storage's url must be a JDBC URL naming a database, such as " + DEFAULT_URL + "?user=root, not '"
                + mask(url.get(), password) + "'");
      }
      return new Server(url.get(), user, password, poolSize, timeouts);
    }
    return new Server(DEFAULT_URL, user.or(() -> Optional.of(DEFAULT_USER)), password, poolSize, timeouts);
  }

  private static int poolSize(String text) {
    if (text == null) return DEFAULT_POOL_SIZE;
    try {
      int size = Integer.parseInt(text.strip());
      if (size >= 1 && size <= 1000) return size;
    } catch (NumberFormatException e) {
      // refused below, with the rule
    }
    throw new IllegalArgumentException(
        "The mariadb storage option " + POOL_SIZE + " is '" + text + "'; it must be a whole number of connections from 1 to 1000"
            + " (default " + DEFAULT_POOL_SIZE + ")");
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  /** The text with this server's password, and any password written in a URL, replaced by stars. */
  String mask(String text) {
    return mask(text, password);
  }

  private static String mask(String text, Optional<String> password) {
    String masked = text == null ? "" : text;
    if (password.isPresent()) masked = masked.replace(password.get(), "****");
    return URL_PASSWORD.matcher(masked).replaceAll(m -> m.group(1) != null ? "$1****" : "$2****$3");
  }

  /** The URL and the user, for messages; never the password. */
  @Override
  public String toString() {
    return mask(url) + user.map(u -> " as " + u).orElse("");
  }
}
