package io.toa4j.manifest;

import java.util.regex.Pattern;

/** The kinds of names a manifest declares, each with its rule in words. */
enum Token {
  COMPONENT_NAME(
      "namespace or name",
      "^[A-Za-z][A-Za-z0-9]{0,31}$",
      "a letter followed by up to 31 letters or digits"),
  OPERATION_NAME(
      "operation name",
      "^[a-z][A-Za-z0-9]{0,31}$",
      "a lowercase letter followed by up to 31 letters or digits"),
  EVENT_NAME(
      "event name",
      "^[a-z][A-Za-z0-9]{0,31}$",
      "a lowercase letter followed by up to 31 letters or digits"),
  PROPERTY_NAME(
      "property name",
      "^[A-Za-z_][A-Za-z0-9_]*$",
      "a letter or underscore, then letters, digits or underscores (it becomes a Java field)"),
  ERROR_CODE(
      "error code",
      "^[A-Za-z0-9_]{1,64}$",
      "1 to 64 letters, digits or underscores, such as INSUFFICIENT_FUNDS"),
  ENGINE_NAME(
      "engine name",
      "^[a-z][a-z0-9-]{0,31}$",
      "a lowercase letter followed by up to 31 lowercase letters, digits or dashes, such as postgres"),
  CONTEXT_NAME(
      "context name",
      "^[a-z][a-z0-9-]{0,31}$",
      "a lowercase letter followed by up to 31 lowercase letters, digits or dashes"),
  ROLE_SCOPE(
      "role scope",
      "^[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)*$",
      "levels of letters, digits, '_' or '-' separated by ':', such as store:wallets");

  private final String noun;
  private final Pattern pattern;
  private final String rule;

  Token(String noun, String pattern, String rule) {
    this.noun = noun;
    this.pattern = Pattern.compile(pattern);
    this.rule = rule;
  }

  /** The rule in words, such as {@code a letter followed by up to 31 letters or digits}. */
  String rule() {
    return rule;
  }

  boolean fits(String value) {
    return pattern.matcher(value).matches();
  }

  /** The value, which must fit; refused at the location otherwise. */
  String check(String value, Location at) {
    if (!fits(value)) {
      throw new ManifestException(at, "'" + value + "' is not a valid " + noun + "; write " + rule);
    }
    return value;
  }
}
