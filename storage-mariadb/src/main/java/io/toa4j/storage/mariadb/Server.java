package io.toa4j.storage.mariadb;

import io.toa4j.sql.Options;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which MariaDB server and database to use and as whom, from a context's storage options, else the
 * environment, else the local default. The password is never shown: {@link #toString()} and {@link
 * #mask(String)} hide it wherever it may hide (the option, or the URL itself).
 *
 * @param url a JDBC URL naming a database, {@code jdbc:mariadb://host:port/database}
 * @param user the user to log in as; empty to let the URL (or the driver's default) decide
 * @param password empty for none
 * @param timeouts how long a statement may run, and from it how long a connection may stay quiet
 */
record Server(
    String url, Optional<String> user, Optional<String> password, int poolSize, Timeouts timeouts) {
  static final String ENVIRONMENT = "TOA_MARIADB_URL";
  static final String DEFAULT_URL = "jdbc:mariadb://127.0.0.1:3306/test";
  static final String DEFAULT_USER = "root";

  /** A URL with a database after its hosts: {@code jdbc:mariadb:[mode:]//hosts/database[?...]}. */
  private static final Pattern WITH_DATABASE =
      Pattern.compile("jdbc:mariadb:(?:[a-z]+:)?//[^/?]*/[^/?;&\\s]+([?].*)?");

  static Server from(Map<String, String> options, Map<String, String> environment) {
    Options.known("mariadb", options);
    int poolSize = Options.poolSize("mariadb", options.get(Options.POOL_SIZE));
    Timeouts timeouts = Timeouts.from(options.get(Options.STATEMENT_TIMEOUT));
    Optional<String> user = Options.nonBlank(options.get("user"));
    Optional<String> password = Options.nonBlank(options.get("password"));
    Optional<String> url =
        Options.nonBlank(options.get("url"))
            .or(() -> Options.nonBlank(environment.get(ENVIRONMENT)));
    if (url.isPresent()) {
      if (!WITH_DATABASE.matcher(url.get()).matches()) {
        throw new IllegalArgumentException(
            "The mariadb storage's url must be a JDBC URL naming a database, such as "
                + DEFAULT_URL
                + "?user=root, not '"
                + Options.mask(url.get(), password)
                + "'");
      }
      return new Server(url.get(), user, password, poolSize, timeouts);
    }
    return new Server(
        DEFAULT_URL, user.or(() -> Optional.of(DEFAULT_USER)), password, poolSize, timeouts);
  }

  /** The text with this server's password, and any password written in a URL, replaced by stars. */
  String mask(String text) {
    return Options.mask(text, password);
  }

  /** The URL and the user, for messages; never the password. */
  @Override
  public String toString() {
    return mask(url) + user.map(u -> " as " + u).orElse("");
  }
}
