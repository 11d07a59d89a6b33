package io.toa4j.storage.postgres;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which PostgreSQL server to use and as whom, from a context's storage options, else the
 * environment, else the local default. The password is never shown: {@link #toString()} and
 * {@link #mask(String)} hide it wherever it may hide (the option, or the URL itself).
 *
 * @param url a JDBC URL, {@code jdbc:postgresql://host:port/database}
 * @param user the role to log in as; empty to let the URL (or the driver's default) decide
 * @param password empty for trust or peer authentication
 */
record Server(String url, Optional<String> user, Optional<String> password) {
  static final String ENVIRONMENT = "TOA_POSTGRES_URL";
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test";
  static final String DEFAULT_USER = "postgres";

  /** A password in a URL: {@code password=...} as a parameter, or {@code user:...@} before a host. */
  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;\\s]*|(//[^/:@\\s]+:)[^@/\\s]*(@)");

  static Server from(Map<String, String> options, Map<String, String> environment) {
    Optional<String> user = nonBlank(options.get("user"));
    Optional<String> password = nonBlank(options.get("password"));
    Optional<String> url = nonBlank(options.get("url")).or(() -> nonBlank(environment.get(ENVIRONMENT)));
    if (url.isPresent()) {
      if (!url.get().startsWith("jdbc:postgresql:")) {
        throw new IllegalArgumentException(
            "The postgres storage's url must be a JDBC URL such as " + DEFAULT_URL + ", not '" + mask(url.get(), password) + "'");
      }
      return new Server(url.get(), user, password);
    }
    return new Server(DEFAULT_URL, user.or(() -> Optional.of(DEFAULT_USER)), password);
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
    return URL_PASSWORD
        .matcher(masked)
        .replaceAll(m -> m.group(1) != null ? "$1****" : "$2****$3");
  }

  /** The URL and the user, for messages; never the password. */
  @Override
  public String toString() {
    return mask(url) + user.map(u -> " as " + u).orElse("");
  }
}
