package io.toa4j.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One path of a component's exposition: its segments under the component's mount (a literal, or a
 * variable written {@code :name}), what each method calls, and the directives in force.
 *
 * @param component the component's label
 * @param mount {@code /namespace/name}, or {@code /name} for a component of the default namespace
 * @param segments the path under the mount; empty for the mount itself
 * @param methods HTTP method to what it calls
 * @param directives the route's own directives, inherited from the routes above it
 */
record Route(
    String component,
    String mount,
    List<String> segments,
    Map<String, Method> methods,
    Directives directives) {

  /**
   * What a method calls: an operation, under the route's directives overridden by its own, with the
   * query block it declares (Toa's {@code { endpoint, query }} form), if it declares one.
   */
  record Method(String operation, Directives directives, Optional<QueryBlock> query) {}

  /**
   * A method's {@code query}: criteria and a sort of its own, each open to a request's (Toa writes
   * an open one ending with {@code ;}) or closed; the window's defaults and ranges; the properties
   * a request may select and sort by; the query string keys that become input properties.
   *
   * @param omit {@code [default, low, high]}
   * @param limit {@code [default, low, high]}
   */
  record QueryBlock(
      Optional<String> criteria,
      boolean criteriaOpen,
      Optional<String> sort,
      boolean sortOpen,
      long[] omit,
      long[] limit,
      List<String> selectors,
      List<String> parameters) {
    /** Toa's defaults: omit 0 in [0, 1000], limit 10 in [1, 1000]. */
    static final long[] OMIT = {0, 0, 1000};

    static final long[] LIMIT = {10, 1, 1000};
  }

  /**
   * What a route declares about access and shape, inherited down the tree and overridden by a
   * nested route (or a method) that states its own.
   *
   * @param anonymous {@code auth:anonymous: true}: a request without credentials is admitted
   * @param anyone {@code auth:anyone: true}: every identity is admitted
   * @param roles {@code auth:role} scopes
   * @param id {@code auth:id}: the route variable whose value must be the caller's identity id
   * @param output {@code io:output}: the properties an answer shows; empty: no body
   * @param whole {@code io:output: true}: the answer is shown whole (a value that is not a record)
   * @param input {@code io:input}: the properties a body may carry; empty: any the schema allows
   * @param keyRequired {@code io:idempotency-key: required}: a request by an unsafe method must
   *     carry an {@code Idempotency-Key}
   */
  record Directives(
      boolean anonymous,
      boolean anyone,
      List<String> roles,
      Optional<String> id,
      Optional<List<String>> output,
      boolean whole,
      Optional<List<String>> input,
      boolean keyRequired) {
    static final Directives NONE =
        new Directives(
            false,
            false,
            List.of(),
            Optional.empty(),
            Optional.empty(),
            false,
            Optional.empty(),
            false);

    /** Open to the identities holding one of the roles, and to no one else. */
    static Directives roles(List<String> roles) {
      return new Directives(
          false, false, roles, Optional.empty(), Optional.empty(), false, Optional.empty(), false);
    }

    /** Whether an answer has a body. */
    boolean answers() {
      return whole || output.isPresent();
    }
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
