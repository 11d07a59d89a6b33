package io.toa4j.test.core;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.EntityDeclaration;
import io.toa4j.manifest.QueryRule;
import io.toa4j.spi.StoredRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Runs every operation a repeat reaches — behind a receiver, a task or a route — on inputs drawn
 * from its JSON Schema, on a copy of a state once and on another copy twice under the same call
 * identity, and reports each operation that ends differently: {@code toa check}.
 *
 * <pre>{@code
 * Check.Report report = Check.folder(Path.of("examples/shop")).seed(42).run();
 * report.findings().forEach(f -> System.out.println(f.line()));
 * }</pre>
 *
 * <p>How: a context booted as the test kit boots one ({@link Harness}: the embedded engine, a test
 * clock, a seeded random source, a failing message parked at once) runs each operation that writes
 * a few times on drawn requests, settling after each, so that the operations checked meet records
 * that exist. Its state — records, outboxes, inboxes, bus, compiled classes — is kept. Then, for
 * each operation reached by a repeat and each try, a request is drawn (an input that its schema's
 * validator accepts; an id of a record that exists three times in four), and two contexts start on
 * copies of that state with the same seed: one makes the call once, the other twice under one
 * identity; both settle, and their records ({@code VERSION} included), the events announced, the
 * messages parked and the reply to the repeat are compared ({@link Snapshot#compare}). The first
 * difference is the operation's finding, and its other tries are skipped.
 *
 * <p>Everything is drawn from the seed, so a seed repeats a run. Not thread-safe.
 */
public final class Check {
  /** The tries of each operation unless told otherwise. */
  public static final int TRIES = 10;

  /** The calls of each writing operation that make the state the tries start from. */
  private static final int PREPARED = 3;

  /**
   * How many inputs are drawn for one request before an operation is given up: none fits its
   * schema.
   */
  private static final int DRAWS = 50;

  private final Path folder;
  private long seed = new Random().nextLong();
  private int tries = TRIES;

  /**
   * One operation that ends differently when its call comes twice.
   *
   * @param operation {@code namespace.name.operation}
   * @param property the property that differs: a record's ({@code count}, {@code VERSION}, {@code
   *     exists}), or {@code announced}, {@code payload} for an event, {@code parked}, {@code reply}
   * @param difference what differs, in words, both values in it
   * @param request the request that shows it, as JSON: {@code {"query":{"id":...},"input":{...}}}
   */
  public record Finding(String operation, String property, String difference, String request) {
    /**
     * The finding on one line: {@code kit.tally.bump: record ... has count = 2, and 1 when
     * delivered once; request {...}}.
     */
    public String line() {
      return operation + ": " + difference + "; request " + request;
    }
  }

  /**
   * What a check found.
   *
   * @param seed the seed it drew everything from
   * @param tries the tries of each operation
   * @param checked the operations reached by a repeat that it tried
   * @param untried the operations reached by a repeat that it could not try, and why
   * @param findings one per operation that ended differently
   */
  public record Report(
      long seed, int tries, List<String> checked, List<String> untried, List<Finding> findings) {
    public Report {
      checked = List.copyOf(checked);
      untried = List.copyOf(untried);
      findings = List.copyOf(findings);
    }
  }

  /**
   * What one context did with the request: its state once settled, and how each call was answered.
   */
  private record Run(Snapshot snapshot, List<String> answers) {}

  private Check(Path folder) {
    this.folder = folder;
  }

  /** A check of the context in this folder (its {@code context.toa.yaml} and components). */
  public static Check folder(Path folder) {
    Objects.requireNonNull(folder, "folder");
    if (!Files.isRegularFile(folder.resolve("context.toa.yaml"))) {
      throw new IllegalArgumentException(
          folder.toAbsolutePath().normalize()
              + " holds no context.toa.yaml; give the folder of a context");
    }
    return new Check(folder);
  }

  /** The seed everything is drawn from; a random one unless told. */
  public Check seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** How many requests each operation is tried with, at most; {@value #TRIES} unless told. */
  public Check tries(int tries) {
    if (tries < 1) throw new IllegalArgumentException("tries is at least 1; got " + tries);
    this.tries = tries;
    return this;
  }

  /**
   * Runs the check: boots the context, makes its state, and tries each operation reached by a
   * repeat.
   */
  public Report run() {
    Harness prepared = context(seed);
    prepared.start();
    List<CheckedOperation> operations;
    Map<String, List<String>> ids;
    Path state;
    try {
      List<CheckedOperation> writing = CheckedOperation.writing(prepared.toa());
      prepare(prepared, writing);
      Set<String> reachable = CheckedOperation.reachable(prepared.toa(), prepared.tasks());
      operations = writing.stream().filter(o -> reachable.contains(o.endpoint())).toList();
      ids = ids(prepared);
      state = prepared.closeKeeping();
    } finally {
      prepared.close();
    }
    try {
      return tryAll(operations, ids, state);
    } finally {
      Folders.delete(state);
    }
  }

  private Report tryAll(
      List<CheckedOperation> operations, Map<String, List<String>> ids, Path state) {
    List<String> checked = new ArrayList<>();
    List<String> untried = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    for (CheckedOperation operation : operations) {
      int drawn = 0;
      for (int i = 0; i < tries; i++) {
        long trial = mix(operation.endpoint(), i);
        Optional<Request> request = request(operation, new Random(trial), ids);
        if (request.isEmpty()) continue;
        drawn++;
        Optional<Finding> finding = trial(operation, request.get(), trial, state);
        if (finding.isPresent()) {
          findings.add(finding.get());
          break;
        }
      }
      if (drawn > 0) checked.add(operation.endpoint());
      else
        untried.add(
            operation.endpoint()
                + ": no input of "
                + DRAWS
                + " drawn fits its schema, in each of "
                + tries
                + " tries");
    }
    return new Report(seed, tries, checked, untried, findings);
  }

  /**
   * The request tried once and twice on copies of the state, and the first difference as a finding.
   */
  private Optional<Finding> trial(
      CheckedOperation operation, Request request, long trial, Path state) {
    Run once = run(operation, request, trial, state, 1);
    Run twice = run(operation, request, trial, state, 2);
    List<Snapshot.Difference> differences =
        new ArrayList<>(twice.snapshot().compare(once.snapshot()));
    String first = once.answers().get(0);
    String repeat = twice.answers().get(1);
    if (!repeat.equals(first)) {
      differences.add(
          new Snapshot.Difference(
              Optional.empty(),
              "reply",
              "the repeat was answered with "
                  + repeat
                  + ", and the call with "
                  + first
                  + " when delivered once"));
    }
    return differences.stream()
        .min(Comparator.comparingInt(Check::rank))
        .map(
            d ->
                new Finding(
                    operation.endpoint(), d.property(), d.text(), Values.json(described(request))));
  }

  /**
   * What tells most first: a declared property of a record, then its VERSION, its other system
   * properties, events, parked messages, the reply.
   */
  private static int rank(Snapshot.Difference d) {
    if (d.record().isPresent()) {
      if (d.property().equals("VERSION")) return 1;
      return EntityDeclaration.SYSTEM_PROPERTIES.contains(d.property()) ? 2 : 0;
    }
    return switch (d.property()) {
      case "announced", "payload" -> 3;
      case "parked" -> 4;
      default -> 5;
    };
  }

  /** A context on a copy of the state, the call made {@code times} under one identity, settled. */
  private Run run(CheckedOperation operation, Request request, long trial, Path state, int times) {
    Harness toa = context(trial);
    toa.start(state);
    try {
      String identity = HexFormat.of().toHexDigits(trial) + HexFormat.of().toHexDigits(~trial);
      List<String> answers = new ArrayList<>();
      for (int i = 0; i < times; i++)
        answers.add(answer(toa, operation.endpoint(), request, identity));
      toa.settle();
      return new Run(toa.snapshot(), answers);
    } finally {
      toa.close();
    }
  }

  /**
   * How a call was answered, in words: {@code an output}, {@code the refusal NOT_PACKED}, {@code
   * the failure NOT_FOUND}.
   */
  private static String answer(Harness toa, String endpoint, Request request, String identity) {
    try {
      Reply reply = toa.call(endpoint, request, identity).answer().reply();
      return reply instanceof Reply.Refused refused
          ? "the refusal " + refused.refusal().code()
          : "an output";
    } catch (Failure f) {
      return "the failure " + f.code();
    }
  }

  /**
   * Runs each writing operation a few times on drawn requests, settling after each, ignoring how
   * each is answered.
   */
  private void prepare(Harness toa, List<CheckedOperation> operations) {
    Random random = new Random(seed);
    for (int i = 0; i < PREPARED; i++) {
      for (CheckedOperation operation : operations) {
        Optional<Request> request = request(operation, random, ids(toa));
        if (request.isEmpty()) continue;
        try {
          toa.call(operation.endpoint(), request.get());
        } catch (Failure f) {
          // a request a generator drew may well fail (a record not found); the state is what the
          // others left
        }
        toa.settle();
      }
    }
  }

  /**
   * A request for the operation: a query when it takes one, an input its schema accepts; empty when
   * none was drawn in {@value #DRAWS} draws.
   */
  private static Optional<Request> request(
      CheckedOperation operation, Random random, Map<String, List<String>> ids) {
    List<String> all = ids.values().stream().flatMap(List::stream).toList();
    SchemaValues values = new SchemaValues(random, all);
    boolean query =
        operation.query() == QueryRule.REQUIRED
            || (operation.query() == QueryRule.OPTIONAL && random.nextBoolean());
    Optional<Query> selected =
        query
            ? Optional.of(
                Query.id(values.id(ids.getOrDefault(operation.component().label(), List.of()))))
            : Optional.empty();
    if (operation.input().isEmpty()) return Optional.of(new Request(selected, Optional.empty()));
    JsonNode schema = operation.input().get().source();
    for (int i = 0; i < DRAWS; i++) {
      JsonNode input = values.draw(schema, schema);
      if (operation.input().get().validate(input).isEmpty())
        return Optional.of(new Request(selected, Optional.of(Values.plain(input))));
    }
    return Optional.empty();
  }

  /** The ids of the records of each component with an entity. */
  private static Map<String, List<String>> ids(Harness toa) {
    Map<String, List<String>> ids = new LinkedHashMap<>();
    toa.toa().context().components().stream()
        .filter(c -> c.entity().isPresent())
        .forEach(
            c ->
                ids.put(c.label(), toa.records(c.label()).stream().map(StoredRecord::id).toList()));
    return ids;
  }

  /** The request as plain values, to print: {@code {query: {id}, input}}. */
  private static Map<String, Object> described(Request request) {
    Map<String, Object> described = new LinkedHashMap<>();
    request.query().flatMap(Query::id).ifPresent(id -> described.put("query", Map.of("id", id)));
    request.input().ifPresent(input -> described.put("input", input));
    return described;
  }

  /** A seed for one try of one operation, drawn from the check's. */
  private long mix(String endpoint, int attempt) {
    return new Random(seed ^ ((long) endpoint.hashCode() << 32) ^ attempt).nextLong();
  }

  /**
   * A context as the kit boots one, parking a failing message at once so that every run settles.
   */
  private Harness context(long seed) {
    return Harness.folder(folder).seed(seed).with(b -> b.retryDelays());
  }
}
