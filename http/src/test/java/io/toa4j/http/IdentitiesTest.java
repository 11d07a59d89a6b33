package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.runtime.SystemRecords;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identities in the runtime's own store on a real SQLite file, opened without booting the context.
 */
class IdentitiesTest {
  @TempDir Path directory;
  final TestClock clock = new TestClock();
  Toa stores;
  Identities identities;

  @BeforeEach
  void open() {
    Notes.write(directory, "context.toa.yaml", "name: test\n");
    stores = Toa.builder().directory(directory).connect();
    identities =
        new Identities(stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock);
  }

  @AfterEach
  void close() {
    stores.close();
  }

  @Test
  void create_thenFind_hasARandomIdAndTheRoles_andTheFileHoldsNoPlainPassword() throws Exception {
    char[] password = "hunter2-but-longer".toCharArray();
    Identities.Identity alice =
        identities.create("alice", password, List.of("store", "store", "billing:read"));

    assertThat(alice.id()).matches("[0-9a-f]{32}");
    assertThat(alice.roles()).containsExactly("store", "billing:read");
    assertThat(identities.find("alice")).contains(alice);
    assertThat(identities.find("bob")).isEmpty();
    assertThat(password).as("the caller's copy is cleared").containsOnly('\0');
    assertThat(directory.resolve(".toa/storage/system.identities.db")).exists();
    try (var files = java.nio.file.Files.list(directory.resolve(".toa/storage"))) { // the WAL too
      for (Path file : files.toList()) {
        assertThat(
                new String(
                    java.nio.file.Files.readAllBytes(file),
                    java.nio.charset.StandardCharsets.ISO_8859_1))
            .as("%s", file)
            .doesNotContain("hunter2-but-longer");
      }
    }
    assertThat(identities.create("bob", "pw".toCharArray(), List.of()).id())
        .isNotEqualTo(alice.id());
  }

  @Test
  void verify_rightPassword_isTheIdentity_aWrongOneOrAnUnknownNameIsEmpty() {
    Identities.Identity alice = identities.create("alice", "pw-1".toCharArray(), List.of());

    assertThat(identities.verify("alice", "pw-1".toCharArray()))
        .hasValueSatisfying(v -> assertThat(v.identity()).isEqualTo(alice));
    assertThat(identities.verify("alice", "pw-2".toCharArray())).isEmpty();
    assertThat(identities.verify("nobody", "pw-1".toCharArray())).isEmpty();
    assertThat(identities.verify("no:name", "pw-1".toCharArray())).isEmpty();
  }

  @Test
  void create_aTakenName_isRefusedAsTaken_andTheFirstIsKept() {
    Identities.Identity first = identities.create("alice", "one".toCharArray(), List.of("store"));

    refused(
        () -> identities.create("alice", "two".toCharArray(), List.of()),
        IdentityException.Reason.TAKEN,
        "an identity named 'alice' exists");
    assertThat(identities.find("alice")).contains(first);
    assertThat(identities.verify("alice", "one".toCharArray())).isPresent();
  }

  @Test
  void create_malformedInput_isRefusedSayingTheRule_andStoresNothing() {
    refused(
        () -> identities.create("", "pw".toCharArray(), List.of()),
        IdentityException.Reason.MALFORMED,
        "is not an identity name");
    refused(
        () -> identities.create("a:b", "pw".toCharArray(), List.of()),
        IdentityException.Reason.MALFORMED,
        "letters, digits");
    refused(
        () -> identities.create("x".repeat(129), "pw".toCharArray(), List.of()),
        IdentityException.Reason.MALFORMED,
        "1 to 128");
    refused(
        () -> identities.create("alice", new char[0], List.of()),
        IdentityException.Reason.MALFORMED,
        "the password is empty");
    refused(
        () -> identities.create("alice", new char[1025], List.of()),
        IdentityException.Reason.MALFORMED,
        "longer than 1024");
    refused(
        () -> identities.create("alice", "pw".toCharArray(), List.of("store:")),
        IdentityException.Reason.MALFORMED,
        "'store:' is not a role scope");
    assertThat(identities.find("alice")).isEmpty();
  }

  @Test
  void changeRoles_addsAndRemoves_andIsSeenByAnotherInstance() {
    identities.create("alice", "pw".toCharArray(), List.of("store"));

    Identities.Identity changed =
        identities.changeRoles("alice", List.of("billing", "store:x"), List.of("store"));
    Identities.Identity again =
        identities.changeRoles("alice", List.of("billing"), List.of("absent"));

    assertThat(changed.roles()).containsExactly("billing", "store:x");
    assertThat(again.roles()).containsExactly("billing", "store:x");
    assertThat(
            new Identities(
                    stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock)
                .find("alice")
                .orElseThrow()
                .roles())
        .containsExactly("billing", "store:x");
  }

  @Test
  void changeRoles_ofAnUnknownName_orWithAMalformedScope_isRefused() {
    identities.create("alice", "pw".toCharArray(), List.of("store"));

    refused(
        () -> identities.changeRoles("bob", List.of("x"), List.of()),
        IdentityException.Reason.UNKNOWN,
        "there is no identity named 'bob'");
    refused(
        () -> identities.changeRoles("alice", List.of("bad scope"), List.of()),
        IdentityException.Reason.MALFORMED,
        "'bad scope'");
    assertThat(identities.find("alice").orElseThrow().roles()).containsExactly("store");
  }

  @Test
  void issue_aTokenSignedWithTheContextsSecret_isAcceptedByAnotherProcessOfTheSameContext() {
    Identities.Identity alice = identities.create("alice", "pw".toCharArray(), List.of());
    Identities.Token token = identities.issue("alice", Duration.ofSeconds(90));
    stores.close();

    stores =
        Toa.builder()
            .directory(directory)
            .connect(); // as the gateway of toa run would, after this process
    Identities other =
        new Identities(stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock);

    assertThat(token.expires()).isEqualTo(clock.instant().plusSeconds(90));
    assertThat(other.tokens().check(token.token()))
        .isEqualTo(
            new Tokens.Checked.Valid(
                alice.id(), "alice", token.expires().minusSeconds(90), token.expires()));
    clock.advance(Duration.ofSeconds(90));
    assertThat(other.tokens().check(token.token())).isInstanceOf(Tokens.Checked.Invalid.class);
  }

  @Test
  void issue_keepsTheSecretInItsOwnFile0600_andNothingOfItInTheStore() throws Exception {
    identities.create("alice", "pw".toCharArray(), List.of());
    identities.issue("alice", Duration.ofMinutes(5));

    Path file = directory.resolve(".toa/secrets/token.key");
    assertThat(java.nio.file.Files.getPosixFilePermissions(file))
        .isEqualTo(io.toa4j.spi.OwnerOnly.FILE);
    String secret = java.nio.file.Files.readString(file).strip();
    assertThat(identities.secretSource()).isEqualTo(file.toString());
    assertThat(stores.admin().records(Identities.STORE).read(Identities.key("secret", "tokens")))
        .isEmpty();
    try (var files = java.nio.file.Files.list(directory.resolve(".toa/storage"))) { // the WAL too
      for (Path stored : files.toList()) {
        String bytes =
            new String(
                java.nio.file.Files.readAllBytes(stored),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(bytes).as("%s", stored).doesNotContain(secret).doesNotContain("\"key\"");
      }
    }
  }

  @Test
  void
      rotation_theSecretFileReplaced_andTheProcessRestarted_refusesEveryEarlierToken_andAcceptsNewOnes()
          throws Exception {
    Identities.Identity alice = identities.create("alice", "pw".toCharArray(), List.of());
    Identities.Token before = identities.issue("alice", Duration.ofDays(1));
    java.nio.file.Files.delete(directory.resolve(".toa/secrets/token.key"));

    Identities restarted =
        new Identities(stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock);
    Identities.Token after = restarted.issue("alice", Duration.ofDays(1));

    assertThat(restarted.tokens().check(before.token()))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
    assertThat(restarted.tokens().check(after.token()))
        .isEqualTo(
            new Tokens.Checked.Valid(
                alice.id(), "alice", after.expires().minus(Duration.ofDays(1)), after.expires()));
  }

  @Test
  void aSecretKeptInTheStoreByEarlierVersions_isRetiredOnFirstLoad_andTokensItSignedAreRefused()
      throws Exception {
    Identities.Identity alice = identities.create("alice", "pw".toCharArray(), List.of());
    byte[] old = new byte[32];
    new java.security.SecureRandom().nextBytes(old);
    var legacy =
        tools.jackson.databind.node.JsonNodeFactory.instance
            .objectNode()
            .put("kind", "secret")
            .put("key", java.util.Base64.getEncoder().encodeToString(old));
    String id = Identities.key("secret", "tokens");
    assertThat(stores.admin().records(Identities.STORE).create(id, legacy.toString())).isTrue();
    String signedWithTheOld =
        new Tokens(old, clock)
            .issue(alice.id(), "alice", clock.instant().plus(Duration.ofHours(1)));

    Identities upgraded =
        new Identities(stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock);

    assertThat(upgraded.tokens().check(signedWithTheOld))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
    SystemRecords.Record retired = stores.admin().records(Identities.STORE).read(id).orElseThrow();
    assertThat(retired.json()).isEqualTo("{\"kind\":\"secret\",\"retired\":true}");
    assertThat(retired.version()).isEqualTo(2);
    assertThat(java.nio.file.Files.readAllBytes(directory.resolve(".toa/secrets/token.key")))
        .isNotEmpty();
    assertThat(
            new Identities(
                    stores.admin().records(Identities.STORE), directory.resolve(".toa"), clock)
                .tokens()
                .check(upgraded.issue("alice", Duration.ofMinutes(1)).token()))
        .isInstanceOf(Tokens.Checked.Valid.class);
  }

  @Test
  void issue_forAnUnknownName_orALifetimeOutOfRange_isRefused() {
    identities.create("alice", "pw".toCharArray(), List.of());

    refused(
        () -> identities.issue("bob", Duration.ofMinutes(1)),
        IdentityException.Reason.UNKNOWN,
        "'bob'");
    refused(
        () -> identities.issue("alice", Duration.ZERO),
        IdentityException.Reason.MALFORMED,
        "1 to 2592000 seconds");
    refused(
        () -> identities.issue("alice", Duration.ofDays(31)),
        IdentityException.Reason.MALFORMED,
        "1 to 2592000 seconds");
  }

  private static void refused(
      ThrowingCallable call, IdentityException.Reason reason, String message) {
    assertThatThrownBy(call)
        .isInstanceOf(IdentityException.class)
        .hasMessageContaining(message)
        .extracting(e -> ((IdentityException) e).reason())
        .isEqualTo(reason);
  }
}
