package io.toa4j.tck.storage;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.StoredRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Records, entries and threads the contract's tests are made of. */
final class Fixtures {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String A = "0123456789abcdef0123456789abcdef";
  static final String B = "fedcba9876543210fedcba9876543210";

  /** How long a concurrent test may take before it counts as hung. */
  static final long PATIENCE_SECONDS = 60;

  private Fixtures() {}

  static String id(long n) {
    return String.format("%032x", n);
  }

  static StoredRecord record(String id, long version, long at, int balance) {
    return new StoredRecord(
        id, version, 1000, at, json(JSON.createObjectNode().put("balance", balance)));
  }

  static OutboxEntry entry(String id, long at) {
    return new OutboxEntry(id, at, json(JSON.createObjectNode().put("n", id)));
  }

  /**
   * Tasks as the runtime writes them: to {@code test.sinks.absorb}, each request naming its
   * identity.
   */
  static Json tasks(String... identities) {
    ArrayNode tasks = JSON.createArrayNode();
    for (String identity : identities) {
      ObjectNode task =
          tasks.addObject().put("identity", identity).put("endpoint", "test.sinks.absorb");
      ObjectNode request = task.putObject("request");
      request.putObject("query").put("id", A);
      request
          .putObject("input")
          .put("identity", identity)
          .put("amount", 5)
          .putArray("tags")
          .add("a")
          .add("ü");
    }
    return json(tasks);
  }

  /** An entry of tasks alone, as a write of a component whose events no one consumes keeps it. */
  static OutboxEntry taskEntry(String id, long at, String... identities) {
    return new OutboxEntry(id, at, Optional.empty(), Optional.of(tasks(identities)), at);
  }

  /** The identities of the tasks an entry holds, in order. */
  static List<String> identities(OutboxEntry entry) {
    List<String> identities = new ArrayList<>();
    entry
        .tasks()
        .map(Fixtures::tree)
        .ifPresent(
            tasks -> tasks.forEach(task -> identities.add(task.path("identity").asString())));
    return identities;
  }

  static InboxEntry answered(String identity, long expires) {
    return new InboxEntry(identity, reply(), expires);
  }

  /**
   * The answer to a call committed at {@code answered} on record {@code record}, given until {@code
   * expires} and remembered until {@code forgotten}.
   */
  static InboxEntry remembered(
      String identity, long answered, long expires, long forgotten, String record) {
    return new InboxEntry(
        identity,
        Optional.of(reply()),
        expires,
        Optional.of("fp-" + identity),
        answered,
        forgotten,
        Optional.of(record));
  }

  static Json reply() {
    return json(JSON.createObjectNode().put("balance", 5));
  }

  static Json json(JsonNode value) {
    try {
      return new Json(JSON.writeValueAsString(value));
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** The value a JSON text holds: stores may give back another text of the same value. */
  static JsonNode tree(Json json) {
    try {
      return JSON.readTree(json.text());
    } catch (tools.jackson.core.JacksonException e) {
      throw new AssertionError("a store gave back text that is not JSON: " + json.text(), e);
    }
  }

  /** Two JSON texts of one value compare equal (keys in any order, any spaces); others do not. */
  static final Comparator<Json> SAME_VALUE =
      (a, b) -> tree(a).equals(tree(b)) ? 0 : a.text().compareTo(b.text()) < 0 ? -1 : 1;

  /**
   * Asserts that what a store gave back is what was given to it: records, entries and their
   * optionals and lists field by field, JSON by the value it holds rather than by its text.
   */
  static void assertSame(Object actual, Object expected) {
    org.assertj.core.api.Assertions.assertThat(actual)
        .usingRecursiveComparison()
        .withComparatorForType(SAME_VALUE, Json.class)
        .isEqualTo(expected);
  }

  /**
   * Runs the task on that many threads released at once, and answers what each returned.
   *
   * @throws AssertionError when a task throws or they do not all finish in time
   */
  static <T> List<T> together(int threads, TaskOf<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int index = i;
        Callable<T> call =
            () -> {
              start.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
              return task.run(index);
            };
        futures.add(pool.submit(call));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) results.add(f.get(PATIENCE_SECONDS, TimeUnit.SECONDS));
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** One thread's part of a concurrent test. */
  @FunctionalInterface
  interface TaskOf<T> {
    T run(int thread) throws Exception;
  }
}
