package io.toa4j.api;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The base of every entity class: the declared properties are the subclass's fields, the system
 * properties are kept here and owned by the runtime.
 *
 * <p>A subclass declares one public field per entity property, named and typed like the manifest's
 * schema ({@code long}, {@code String}, {@code Map}, {@code List}, ...), and a no-argument
 * constructor. The runtime fills the fields from the stored record before the operation runs and
 * reads them back after it returns.
 *
 * <p>{@code DISCARD} and {@code TRAILERS} are transient: they are never stored with the record. Not
 * thread-safe; an entry belongs to one run of one operation.
 */
public abstract class Entry {
  // Field names are the record's property names; the runtime binds them by reflection.
  @SuppressWarnings("NullAway.Init") // bound before the author's code sees the entry
  private String id;

  private long VERSION;
  private long CREATED;
  private long UPDATED;
  private transient boolean DISCARD;
  private transient @Nullable Map<String, Object> TRAILERS;

  protected Entry() {}

  /** The record's id: 32 hexadecimal characters. */
  public final String id() {
    return id;
  }

  /** 0 for a record never written; 1 after its first write, one more for every committed write. */
  public final long version() {
    return VERSION;
  }

  /** When the record was first written, in epoch milliseconds; 0 before that. */
  public final long created() {
    return CREATED;
  }

  /** When the record was last written, in epoch milliseconds; 0 before the first write. */
  public final long updated() {
    return UPDATED;
  }

  /**
   * Says "already so": nothing is written, {@code VERSION} does not grow, no event is announced,
   * and the caller still gets what the operation returned, as a success.
   */
  public final void discard() {
    DISCARD = true;
  }

  /** Whether {@link #discard()} was called during this run. */
  public final boolean discarded() {
    return DISCARD;
  }

  /**
   * Out-of-band facts about this change that travel with its event and are never stored on the
   * record. The map is created on first use and is mutable.
   */
  public final Map<String, Object> trailers() {
    Map<String, Object> trailers = TRAILERS;
    if (trailers == null) TRAILERS = trailers = new LinkedHashMap<>();
    return trailers;
  }
}
