package io.toa4j.api;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Selects the records an operation acts on.
 *
 * @param id the record's id, 32 hexadecimal characters
 * @param version a precondition: the record must be at this version (a 412 over HTTP otherwise)
 * @param limit how many records an enumeration answers at most
 * @param omit how many records an enumeration skips first
 */
public record Query(Optional<String> id, OptionalLong version, OptionalLong limit, OptionalLong omit) {
  public Query {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(omit, "omit");
  }

  /** The record with this id. */
  public static Query id(String id) {
    return new Query(Optional.of(id), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
  }

  /** The record with this id, which must be at this version. */
  public static Query id(String id, long version) {
    return new Query(Optional.of(id), OptionalLong.of(version), OptionalLong.empty(), OptionalLong.empty());
  }

  /** A page of records for an enumeration. */
  public static Query page(long limit, long omit) {
    return new Query(Optional.empty(), OptionalLong.empty(), OptionalLong.of(limit), OptionalLong.of(omit));
  }
}
