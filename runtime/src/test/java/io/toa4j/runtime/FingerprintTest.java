package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A call identity used again for a different request is refused, never answered with the first
 * answer; the same request, however it is written, is a repeat.
 */
class FingerprintTest {
  static final String ACCOUNT = OnceTest.ACCOUNT;
  static final String OTHER = "abcdefabcdefabcdefabcdefabcdef12";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa ledger() {
    return Toa.builder()
        .directory(Contexts.ledger(directory, "true"))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static Request add(String account, long amount) {
    return Request.of(account, Map.of("amount", amount, "mode", "ok"));
  }

  private static long balance(Toa app, String account) {
    Object balance =
        Shop.output(app.call("test.ledger.observe", Request.id(account))).get("balance");
    return balance == null ? 0 : ((Number) balance).longValue();
  }

  @Test
  void answer_firstCall_isNotReplayed_andCarriesTheRetention_theRepeatIsReplayed() {
    try (Toa app = ledger()) {
      Answer first = app.answer("test.ledger.add", add(ACCOUNT, 5), "call-1");
      Answer second = app.answer("test.ledger.add", add(ACCOUNT, 5), "call-1");

      assertThat(first.replayed()).isFalse();
      assertThat(second.replayed()).isTrue();
      assertThat(second.reply()).isEqualTo(first.reply());
      assertThat(first.retention()).contains(Duration.ofHours(1));
      assertThat(second.retention()).contains(Duration.ofHours(1));
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
    }
  }

  @Test
  void answer_ofAnOperationWithoutOnce_hasNoRetention_andIsNeverReplayed() {
    try (Toa app = ledger()) {
      Answer first =
          app.answer(
              "test.feed.post",
              Request.of(OTHER, Map.of("account", ACCOUNT, "amount", 1)),
              "call-1");
      Answer again =
          app.answer(
              "test.feed.post",
              Request.of(OTHER, Map.of("account", ACCOUNT, "amount", 1)),
              "call-1");

      assertThat(first.retention()).isEmpty();
      assertThat(first.replayed()).isFalse();
      assertThat(again.replayed()).isFalse();
    }
  }

  @Test
  void call_sameIdentityWithAnotherInput_isRefusedAsReused_andChangesNothing() {
    try (Toa app = ledger()) {
      app.call("test.ledger.add", add(ACCOUNT, 5), "call-1");

      assertThatThrownBy(() -> app.call("test.ledger.add", add(ACCOUNT, 6), "call-1"))
          .isInstanceOfSatisfying(
              Failure.class,
              f -> {
                assertThat(f.code()).isEqualTo(Failure.Code.IDENTITY_REUSED);
                assertThat(f.code().status()).isEqualTo(422);
                assertThat(f.code().isTransient()).isFalse();
              })
          .hasMessageContaining("call-1")
          .hasMessageContaining("test.ledger.add")
          .hasMessageContaining("different request");
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
      assertThat(app.call("test.ledger.add", add(ACCOUNT, 5), "call-1"))
          .as("the first request still repeats")
          .isInstanceOf(Reply.Output.class);
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
    }
  }

  @Test
  void call_sameIdentityForAnotherRecord_isRefusedAsReused_andChangesNothing() {
    try (Toa app = ledger()) {
      app.call("test.ledger.add", add(ACCOUNT, 5), "call-1");

      assertThatThrownBy(() -> app.call("test.ledger.add", add(OTHER, 5), "call-1"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.IDENTITY_REUSED));
      assertThatThrownBy(
              () ->
                  app.call(
                      "test.ledger.add",
                      new Request(
                          Optional.of(Query.id(ACCOUNT, 1)),
                          Optional.of(Map.of("amount", 5, "mode", "ok"))),
                      "call-1"))
          .as("a version precondition is part of the request")
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.IDENTITY_REUSED));
      assertThat(balance(app, OTHER)).isZero();
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
    }
  }

  @Test
  void call_sameRequestWrittenAsYamlWithKeysReordered_isARepeat() throws Exception {
    JsonNode json = new ObjectMapper().readTree("{\"mode\": \"ok\", \"amount\": 5}");
    JsonNode yaml = new YAMLMapper().readTree("amount: 5.0\nmode: ok\n");
    try (Toa app = ledger()) {
      app.call(
          "test.ledger.add",
          new Request(Optional.of(Query.id(ACCOUNT)), Optional.of(json)),
          "call-1");

      Answer again =
          app.answer(
              "test.ledger.add",
              new Request(Optional.of(Query.id(ACCOUNT)), Optional.of(yaml)),
              "call-1");

      assertThat(again.replayed()).isTrue();
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
    }
  }

  @Test
  void call_answeredBeforeFingerprintsWereKept_isAnsweredWhateverItAsks() throws Exception {
    try (Toa app = ledger()) {
      app.call("test.ledger.add", add(ACCOUNT, 5), "call-1");
      try (Connection c =
          DriverManager.getConnection(
              "jdbc:sqlite:" + directory.resolve(".toa/storage/test.ledger.db"))) {
        assertThat(c.createStatement().executeUpdate("UPDATE inbox SET fingerprint = NULL"))
            .isEqualTo(1);
      }

      Answer again = app.answer("test.ledger.add", add(ACCOUNT, 6), "call-1");

      assertThat(again.replayed()).isTrue();
      assertThat(balance(app, ACCOUNT)).isEqualTo(5);
    }
  }

  /** What one twin got: an answer or a failure. */
  record Twin(long amount, Optional<Answer> answer, Optional<Failure.Code> failure) {}

  @Test
  void twinsWithDifferentRequests_oneCommits_theOthersGetItsAnswerOrAreRefused() throws Exception {
    try (Toa app = ledger()) {
      app.call(
          "test.ledger.add", add(ACCOUNT, 1000), "setup"); // twins race on the record's version
      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Twin>> futures = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        long amount = 1 + i % 2;
        futures.add(
            pool.submit(
                (Callable<Twin>)
                    () -> {
                      start.await();
                      try {
                        return new Twin(
                            amount,
                            Optional.of(
                                app.answer("test.ledger.add", add(ACCOUNT, amount), "the-call")),
                            Optional.empty());
                      } catch (Failure f) {
                        return new Twin(amount, Optional.empty(), Optional.of(f.code()));
                      }
                    }));
      }
      start.countDown();
      List<Twin> twins = new ArrayList<>();
      for (Future<Twin> f : futures) twins.add(f.get(60, TimeUnit.SECONDS));
      pool.shutdown();

      long credited = balance(app, ACCOUNT) - 1000;
      assertThat(credited).isIn(1L, 2L);
      assertThat(twins)
          .filteredOn(t -> t.amount() == credited)
          .allSatisfy(t -> assertThat(t.answer()).isPresent());
      assertThat(twins)
          .filteredOn(t -> t.amount() != credited)
          .allSatisfy(t -> assertThat(t.failure()).contains(Failure.Code.IDENTITY_REUSED));
      assertThat(twins)
          .filteredOn(t -> t.answer().isPresent() && !t.answer().get().replayed())
          .hasSize(1);
    }
  }

  @Test
  void fingerprint_ofAQueryWithEveryField_isTheHashOfItsCanonicalText() throws Exception {
    Query query =
        new Query(
            Optional.of("x\"1"),
            java.util.OptionalLong.of(3),
            java.util.OptionalLong.of(5),
            java.util.OptionalLong.of(2),
            Optional.of("a==1"),
            Optional.of("-b"));
    JsonNode input = new ObjectMapper().readTree("{\"z\":1.50,\"a\":[true,null,\"s\"]}");
    String canonical =
        "{\"operation\":\"op\",\"query\":{\"criteria\":\"a==1\",\"id\":\"x\\\"1\",\"limit\":5,\"omit\":2,"
            + "\"sort\":\"-b\",\"version\":3},\"input\":{\"a\":[true,null,\"s\"],\"z\":1.5}}";
    String expected =
        java.util.HexFormat.of()
            .formatHex(
                java.security.MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(java.nio.charset.StandardCharsets.UTF_8)));

    assertThat(
            Fingerprints.of(
                "op", new Invocation(Optional.empty(), input, "call-1", Optional.of(query))))
        .isEqualTo(expected);
    Query bare =
        new Query(
            Optional.empty(),
            java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(),
            Optional.empty(),
            Optional.empty());
    String none = "{\"operation\":\"op\",\"query\":{},\"input\":null}";
    assertThat(
            Fingerprints.of(
                "op",
                new Invocation(
                    Optional.empty(),
                    tools.jackson.databind.node.MissingNode.getInstance(),
                    "call-1",
                    Optional.of(bare))))
        .isEqualTo(
            java.util.HexFormat.of()
                .formatHex(
                    java.security.MessageDigest.getInstance("SHA-256")
                        .digest(none.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
  }
}
