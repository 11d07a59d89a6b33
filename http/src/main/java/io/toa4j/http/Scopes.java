package io.toa4j.http;

import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Role scopes: levels of letters, digits, {@code _} or {@code -} separated by {@code :}, such as
 * {@code store:wallets}. A held scope covers itself and every scope under it, level by level:
 * {@code store} covers {@code store:wallets} and {@code store:wallets:x}, but {@code store:wal}
 * does not cover {@code store:wallets}, nor does {@code store:wallets} cover {@code store}.
 */
final class Scopes {
  /** The rule of the manifest's {@code auth:role}, so a stored role and a declared one compare. */
  private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)*");

  static final int MAX_LENGTH = 255;

  private Scopes() {}

  static boolean valid(String scope) {
    return scope.length() <= MAX_LENGTH && SCOPE.matcher(scope).matches();
  }

  /**
   * The scope, which must be valid.
   *
   * @throws IdentityException with reason MALFORMED, saying the rule, otherwise
   */
  static String check(String scope) {
    if (!valid(scope)) {
      throw new IdentityException(
          IdentityException.Reason.MALFORMED,
          "'"
              + scope
              + "' is not a role scope; write levels of letters, digits, '_' or '-' separated by ':', such as"
              + " store:wallets (at most "
              + MAX_LENGTH
              + " characters)");
    }
    return scope;
  }

  /** Whether holding {@code held} grants {@code required}: the same scope, or one under it. */
  static boolean covers(String held, String required) {
    return required.equals(held)
        || (required.startsWith(held) && required.charAt(held.length()) == ':');
  }

  /** Whether any held scope covers any required one. */
  static boolean grant(Collection<String> held, Collection<String> required) {
    for (String h : held) for (String r : required) if (covers(h, r)) return true;
    return false;
  }
}
