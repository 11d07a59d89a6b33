package io.toa4j.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What a call asks for: an optional query selecting the record, and an input of plain values (or
 * any object that maps to the operation's input schema).
 *
 * @param query the record to act on; absent for a new record or an operation without state
 * @param input the operation's input; absent when the operation declares none
 */
public record Request(Optional<Query> query, Optional<Object> input) {
  public Request {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(input, "input");
  }

  /** A request with neither query nor input. */
  public static Request empty() {
    return new Request(Optional.empty(), Optional.empty());
  }

  /** A request with an input and no query. */
  public static Request input(Object input) {
    return new Request(Optional.empty(), Optional.of(input));
  }

  /** A request for the record with this id, with no input. */
  public static Request id(String id) {
    return new Request(Optional.of(Query.id(id)), Optional.empty());
  }

  /** A request for the record with this id, with an input. */
  public static Request of(String id, Object input) {
    return new Request(Optional.of(Query.id(id)), Optional.of(input));
  }

  /** A request with a query and an input. */
  public static Request of(Query query, Object input) {
    return new Request(Optional.of(query), Optional.of(input));
  }
}
