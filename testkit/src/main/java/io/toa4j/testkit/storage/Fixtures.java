package io.toa4j.testkit.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
    ObjectNode state = JSON.createObjectNode().put("balance", balance);
    return new StoredRecord(id, version, 1000, at, state);
  }

  static OutboxEntry entry(String id, long at) {
    return new OutboxEntry(id, at, JSON.createObjectNode().put("n", id));
  }

  /** A task as an operation sends it: to {@code test.sinks.absorb}, its request naming the identity. */
  static OutboxEntry.Task task(String identity) {
    ObjectNode request = JSON.createObjectNode();
    request.putObject("query").put("id", A);
    request.putObject("input").put("identity", identity).put("amount", 5).putArray("tags").add("a").add("ü");
    return new OutboxEntry.Task(identity, "test.sinks.absorb", request);
  }

  /** An entry of tasks alone, as a write of a component whose events no one consumes keeps it. */
  static OutboxEntry tasks(String id, long at, String... identities) {
    return new OutboxEntry(id, at, Optional.empty(), Stream.of(identities).map(Fixtures::task).toList(), at);
  }

  static InboxEntry answered(String identity, long expires) {
    return new InboxEntry(identity, reply(), expires);
  }

  static JsonNode reply() {
    return JSON.createObjectNode().put("balance", 5);
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
