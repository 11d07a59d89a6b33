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
 * @param criteria a condition on the records, in RSQL ({@code state==hot;rank=gt=5}): an
 *     enumeration answers the records that meet it, an operation on one record acts on the first of
 *     them (in {@code sort}'s order), as Toa's queries do
 * @param sort the order, as Toa writes it: properties separated by {@code ;}, each with an optional
 *     {@code :asc} or {@code :desc} ({@code rank:desc;name})
 */
public record Query(
    Optional<String> id,
    OptionalLong version,
    OptionalLong limit,
    OptionalLong omit,
    Optional<String> criteria,
    Optional<String> sort) {
  public Query {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(omit, "omit");
    Objects.requireNonNull(criteria, "criteria");
    Objects.requireNonNull(sort, "sort");
  }

  /** A query without criteria or sort. */
  public Query(Optional<String> id, OptionalLong version, OptionalLong limit, OptionalLong omit) {
    this(id, version, limit, omit, Optional.empty(), Optional.empty());
  }

  /** The record with this id. */
  public static Query id(String id) {
    return new Query(
        Optional.of(id), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
  }

  /** The record with this id, which must be at this version. */
  public static Query id(String id, long version) {
    return new Query(
        Optional.of(id), OptionalLong.of(version), OptionalLong.empty(), OptionalLong.empty());
  }

  /** A page of records for an enumeration. */
  public static Query page(long limit, long omit) {
    return new Query(
        Optional.empty(), OptionalLong.empty(), OptionalLong.of(limit), OptionalLong.of(omit));
  }

  /** The records that meet the criteria (RSQL), in the sort's order (empty: creation order). */
  public static Query where(String criteria, Optional<String> sort) {
    return new Query(
        Optional.empty(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        Optional.of(criteria),
        sort);
  }

  /** This query with its id set, as when its criteria found the record it names. */
  public Query withId(String found) {
    return new Query(Optional.of(found), version, limit, omit, criteria, sort);
  }
}
