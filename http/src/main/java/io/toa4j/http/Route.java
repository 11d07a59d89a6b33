package io.toa4j.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One path of a component's exposition: its segments under the component's mount (a literal, or a
 * variable written {@code :name}), the operation each method calls, and the directives in force.
 *
 * @param component the component's label
 * @param mount {@code /namespace/name}
 * @param segments the path under the mount; empty for the mount itself
 * @param methods HTTP method to operation name
 */
record Route(String component, String mount, List<String> segments, Map<String, String> methods, Directives directives) {

  /**
   * What a route declares about access and shape, inherited down the tree and overridden by a
   * nested route that states its own.
   *
   * @param anonymous {@code auth:anonymous: true}
   * @param roles {@code auth:role} scopes
   * @param id {@code auth:id}: the route variable whose value must be the caller's identity id
   * @param output {@code io:output}: the properties an answer shows; empty: no body
   * @param input {@code io:input}: the properties a body may carry; empty: any the schema allows
   * @param keyRequired {@code io:idempotency-key: required}: a request by an unsafe method must
   *     carry an {@code Idempotency-Key}
   */
  record Directives(
      boolean anonymous,
      List<String> roles,
      Optional<String> id,
      Optional<List<String>> output,
      Optional<List<String>> input,
      boolean keyRequired) {
    static final Directives NONE = new Directives(false, List.of(), Optional.empty(), Optional.empty(), Optional.empty(), false);
  }

  /** The path as declared, for messages: {@code /billing/wallets/:id/credits/}. */
  String path() {
    return mount + "/" + String.join("/", segments) + (segments.isEmpty() ? "" : "/");
  }

  /** How specific the route is: literal segments before variables win. */
  int literals() {
    return (int) segments.stream().filter(s -> !s.startsWith(":")).count();
  }
}
