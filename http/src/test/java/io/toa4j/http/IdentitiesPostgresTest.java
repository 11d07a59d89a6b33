package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.SystemRecords;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.time.TestClock;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identities on a real PostgreSQL ({@code TOA_POSTGRES_URL}, else the local default the storage
 * uses, as {@link Server#url()} has it), kept as the gateway keeps them, through a context's {@code
 * admin().records}, in a database of this test's own that it drops afterwards; several instances
 * over one store stand for several processes.
 */
@Needs(Server.POSTGRES)
class IdentitiesPostgresTest {
  @TempDir Path directory;
  final TestClock clock = new TestClock();
  final String database = "toa_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  Toa context;
  SystemRecords store;

  @BeforeEach
  void open() throws Exception {
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url());
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
    Files.writeString(
        directory.resolve("context.toa.yaml"),
        "name: identities\nstorage:\n  engine: postgres\n  url: "
            + Server.POSTGRES.url(database)
            + "\n");
    context = Toa.builder().directory(directory).connect();
    store = context.admin().records(Identities.STORE);
  }

  @AfterEach
  void drop() throws Exception {
    if (context != null) context.close();
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  @Test
  void createVerifyAndTakenNames_workAsOnSqlite() {
    Identities identities = new Identities(store, directory.resolve(".toa"), clock);
    Identities.Identity alice = identities.create("alice", "pw".toCharArray(), List.of("store"));

    assertThat(
            new Identities(store, directory.resolve(".toa"), clock)
                .verify("alice", "pw".toCharArray()))
        .hasValueSatisfying(v -> assertThat(v.identity()).isEqualTo(alice));
    assertThat(identities.verify("alice", "pw!".toCharArray())).isEmpty();
    assertThat(
            catchReason(
                () ->
                    new Identities(store, directory.resolve(".toa"), clock)
                        .create("alice", "x".toCharArray(), List.of())))
        .isEqualTo(IdentityException.Reason.TAKEN);
  }

  @Test
  void concurrentRoleChangesFromSeveralInstances_loseNone() throws Exception {
    new Identities(store, directory.resolve(".toa"), clock)
        .create("alice", "pw".toCharArray(), List.of());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> changes = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        String role = "r" + i;
        changes.add(
            pool.submit(
                () ->
                    new Identities(store, directory.resolve(".toa"), clock)
                        .changeRoles("alice", List.of(role), List.of())));
      }
      for (Future<?> change : changes) change.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }

    assertThat(
            new Identities(store, directory.resolve(".toa"), clock)
                .find("alice")
                .orElseThrow()
                .roles())
        .hasSize(12);
  }

  @Test
  void issuingTokens_writesNothingSecretToPostgres_andALegacyStoredSecretIsRetired()
      throws Exception {
    Identities identities = new Identities(store, directory.resolve(".toa"), clock);
    identities.create("alice", "pw".toCharArray(), List.of());
    String id = Identities.key("secret", "tokens");
    var legacy =
        tools.jackson.databind.node.JsonNodeFactory.instance
            .objectNode()
            .put("kind", "secret")
            .put("key", java.util.Base64.getEncoder().encodeToString(new byte[32]));
    assertThat(store.create(id, legacy.toString())).isTrue();

    identities.issue("alice", Duration.ofMinutes(5));

    String secret =
        java.nio.file.Files.readString(directory.resolve(".toa/secrets/token.key")).strip();
    String schema = "system_identities";
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(Server.POSTGRES.url(database));
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (var r =
          s.executeQuery(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                  + schema
                  + "'")) {
        while (r.next()) tables.add(r.getString(1));
      }
      assertThat(tables).isNotEmpty();
      for (String table : tables) {
        try (var r =
            s.executeQuery(
                "SELECT row_to_json(t)::text FROM \"" + schema + "\".\"" + table + "\" t")) {
          while (r.next()) rows.add(r.getString(1));
        }
      }
    }
    assertThat(rows).anyMatch(r -> r.contains("alice"));
    assertThat(rows)
        .allSatisfy(
            r ->
                assertThat(r)
                    .doesNotContain(secret)
                    .doesNotContain("key\\\"")
                    .doesNotContain("\"key\"")
                    .doesNotContain("AAAAAAAAAAAAAAAAAAAA"));
    assertThat(store.read(id).orElseThrow().json().replace(" ", ""))
        .as("the same value, as jsonb writes it")
        .isEqualTo("{\"kind\":\"secret\",\"retired\":true}");
  }

  @Test
  void instancesRacingToMakeTheTokenSecretFile_endWithOne_soEachAcceptsTheOthersTokens()
      throws Exception {
    new Identities(store, directory.resolve(".toa"), clock)
        .create("alice", "pw".toCharArray(), List.of());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<String> tokens = new ArrayList<>();
    List<Identities> racers = new ArrayList<>();
    try {
      List<Future<String>> issued = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Identities racer = new Identities(store, directory.resolve(".toa"), clock);
        racers.add(racer);
        Callable<String> issue = () -> racer.issue("alice", Duration.ofMinutes(5)).token();
        issued.add(pool.submit(issue));
      }
      for (Future<String> token : issued) tokens.add(token.get(60, TimeUnit.SECONDS));
    } finally {
      pool.shutdownNow();
    }

    // the same payload at the same moment: one secret signs it the same way in every instance
    assertThat(Set.copyOf(tokens)).hasSize(1);
    for (Identities racer : racers) {
      for (String token : tokens)
        assertThat(racer.tokens().check(token)).isInstanceOf(Tokens.Checked.Valid.class);
    }
  }

  private static IdentityException.Reason catchReason(Runnable action) {
    try {
      action.run();
    } catch (IdentityException e) {
      return e.reason();
    }
    throw new AssertionError("expected a refusal");
  }
}
