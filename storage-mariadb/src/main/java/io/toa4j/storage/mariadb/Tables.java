package io.toa4j.storage.mariadb;

import java.util.regex.Pattern;

/**
 * The tables that hold one component's rows, in the storage's database: {@code billing.wallets} has
 * {@code billing_wallets_records}, {@code billing_wallets_outbox}, {@code billing_wallets_inbox}
 * and {@code billing_wallets_migrations}.
 *
 * <p>A label is {@code namespace.name}, each a letter followed by up to 31 letters or digits, as a
 * manifest declares them. Neither part may hold an underscore, so two labels never share a table;
 * anything else is refused before it comes near SQL. A name is always quoted, so its case is kept
 * where the server keeps the case of table names (on Linux, unless {@code lower_case_table_names}
 * says otherwise).
 *
 * @param label the component's label
 * @param prefix what every table's name starts with, unquoted: {@code billing_wallets}
 */
record Tables(String label, String prefix) {
  private static final Pattern LABEL =
      Pattern.compile("[A-Za-z][A-Za-z0-9]{0,31}\\.[A-Za-z][A-Za-z0-9]{0,31}");

  /** MariaDB's longest table name, in characters. */
  private static final int LONGEST = 64;

  /** The longest suffix of a component's tables. */
  private static final String LONGEST_SUFFIX = "_migrations";

  static Tables of(String label) {
    if (label == null || !LABEL.matcher(label).matches()) {
      throw new IllegalArgumentException(
          "'"
              + label
              + "' is not a component label: write namespace.name, each a letter followed by up to 31 letters or"
              + " digits, such as billing.wallets");
    }
    String prefix = label.replace('.', '_');
    if (prefix.length() + LONGEST_SUFFIX.length() > LONGEST) {
      throw new IllegalArgumentException(
          "The component "
              + label
              + " needs a MariaDB table named "
              + prefix
              + LONGEST_SUFFIX
              + ", "
              + (prefix.length() + LONGEST_SUFFIX.length())
              + " characters long; MariaDB allows "
              + LONGEST
              + ". Shorten its namespace or name (together at most "
              + (LONGEST - LONGEST_SUFFIX.length() - 1)
              + " characters).");
    }
    return new Tables(label, prefix);
  }

  /**
   * One of the component's tables, quoted, ready to write into SQL. Safe: letters, digits and '_'
   * only.
   */
  String table(String table) {
    return '`' + prefix + '_' + table + '`';
  }
}
