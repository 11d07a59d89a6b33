package io.toa4j.runtime;

import java.util.regex.Pattern;

/**
 * The stores the runtime keeps on a context's storage: its own, and those it hands to the parts of
 * toa4j around it ({@link Admin#records}).
 *
 * <p>Each is the store of a label {@code system.<name>}: the {@code system} namespace is reserved
 * for the runtime (no manifest may declare it), so such a store never meets a component's, and it
 * lives wherever the context keeps its components' data (a SQLite file under {@code .toa/storage/},
 * a PostgreSQL schema {@code system_<name>}).
 */
final class SystemStores {
  private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]{0,31}");

  private SystemStores() {}

  /** {@code system.<name>}; the name is a lowercase letter and up to 31 letters or digits. */
  static String label(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a system store name: a lowercase letter and up to 31 letters or digits");
    }
    return "system." + name;
  }
}
