package io.toa4j.manifest;

/**
 * One way a value does not fit a schema.
 *
 * @param path where in the value, as a JSON pointer such as {@code /amount} ({@code ""} for the
 *     whole value)
 * @param message what is wrong, in words
 */
public record Violation(String path, String message) {
  @Override
  public String toString() {
    return (path.isEmpty() ? "(root)" : path) + ": " + message;
  }
}
