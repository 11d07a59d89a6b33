package io.toa4j.storage.postgres;

import java.util.regex.Pattern;

/**
 * The PostgreSQL schema that holds one component's tables: {@code billing.wallets} lives in {@code
 * billing_wallets}.
 *
 * <p>A label is {@code namespace.name}, each a letter followed by up to 31 letters or digits, as a
 * manifest declares them. Neither part may hold an underscore, so two labels never share a schema;
 * anything else is refused before it comes near SQL. The name is always quoted, so its case is kept
 * as written.
 *
 * @param label the component's label
 * @param name the schema's name, unquoted
 */
record Schema(String label, String name) {
  private static final Pattern LABEL =
      Pattern.compile("[A-Za-z][A-Za-z0-9]{0,31}\\.[A-Za-z][A-Za-z0-9]{0,31}");

  /** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1); labels are ASCII. */
  private static final int LONGEST = 63;

  static Schema of(String label) {
    if (label == null || !LABEL.matcher(label).matches()) {
      throw new IllegalArgumentException(
          "'"
              + label
              + "' is not a component label: write namespace.name, each a letter followed by up to 31 letters or"
              + " digits, such as billing.wallets");
    }
    String name = label.replace('.', '_');
    if (name.length() > LONGEST) {
      throw new IllegalArgumentException(
          "The component "
              + label
              + " needs a PostgreSQL schema named "
              + name
              + ", "
              + name.length()
              + " characters long; PostgreSQL allows "
              + LONGEST
              + ". Shorten its namespace or name.");
    }
    return new Schema(label, name);
  }

  /** A table of this schema, quoted, ready to write into SQL. */
  String table(String table) {
    return quoted() + "." + table;
  }

  /** The schema's name, quoted. Safe because the name holds only letters, digits and one '_'. */
  String quoted() {
    return '"' + name + '"';
  }
}
