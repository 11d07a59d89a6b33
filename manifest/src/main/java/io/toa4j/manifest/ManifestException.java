package io.toa4j.manifest;

import io.toa4j.api.ToaException;

/**
 * A declaration that does not fit: the message names the file, the YAML path, what is wrong and
 * what would be right. Thrown at load; nothing starts.
 */
public final class ManifestException extends ToaException {
  private static final long serialVersionUID = 1L;

  private final transient Location location;

  public ManifestException(Location location, String problem) {
    super(location + ": " + problem);
    this.location = location;
  }

  public ManifestException(Location location, String problem, Throwable cause) {
    super(location + ": " + problem, cause);
    this.location = location;
  }

  public Location location() {
    return location;
  }
}
