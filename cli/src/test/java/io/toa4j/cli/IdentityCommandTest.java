package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code toa identity} in this JVM, on a context with no component, its identities in SQLite. */
class IdentityCommandTest {
  private static final YAMLMapper YAML = new YAMLMapper();

  @TempDir Path context;
  private StringWriter out;
  private StringWriter err;

  @BeforeEach
  void context() throws IOException {
    Files.writeString(context.resolve("context.toa.yaml"), "name: test\n");
  }

  @Test
  void help_ofEveryIdentityCommand_exitsZeroAndDescribesIt() {
    assertThat(run("", "identity", "--help")).isZero();
    assertThat(out.toString()).contains("create", "token", "roles", "storage");
    assertThat(run("", "identity", "create", "--help")).isZero();
    assertThat(out.toString())
        .contains("<name>", "--role=<scope>", "stdin", "printf '%s\\n'", "PBKDF2", "64");
    assertThat(run("", "identity", "token", "--help")).isZero();
    assertThat(out.toString()).contains("<name>", "--ttl=<seconds>", "Bearer", "3600");
    assertThat(run("", "identity", "roles", "--help")).isZero();
    assertThat(out.toString())
        .contains("<name>", "--add=<scope>", "--remove=<scope>", "store:wallets");
    assertThat(run("", "--help")).isZero();
    assertThat(out.toString()).contains("identity");
  }

  @Test
  void create_readsThePasswordFromStdin_andPrintsTheIdentity() throws Exception {
    assertThat(
            run(
                "s3cret\n",
                "identity",
                "create",
                "alice",
                "--role",
                "store",
                "--role",
                "billing:read"))
        .as(err.toString())
        .isZero();

    JsonNode created = YAML.readTree(out.toString());
    assertThat(created.path("id").asString()).matches("[0-9a-f]{32}");
    assertThat(created.path("name").asString()).isEqualTo("alice");
    assertThat(created.path("roles").toString()).isEqualTo("[\"store\",\"billing:read\"]");
    assertThat(out.toString()).doesNotContain("s3cret");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void create_aTakenName_exits2_andKeepsTheFirst() throws Exception {
    assertThat(run("one\n", "identity", "create", "alice", "--role", "store")).isZero();

    assertThat(run("two\n", "identity", "create", "alice")).isEqualTo(2);
    assertThat(err.toString()).contains("an identity named 'alice' exists; choose another name");
    assertThat(run("", "identity", "roles", "alice")).isZero();
    assertThat(out.toString()).isEqualTo("- store\n");
  }

  @Test
  void create_badInput_exits64SayingWhatIsWrong_andCreatesNothing() {
    assertThat(run("", "identity", "create", "alice")).isEqualTo(64);
    assertThat(err.toString()).contains("the password is empty", "stdin");
    assertThat(run("\n", "identity", "create", "alice")).isEqualTo(64);
    assertThat(err.toString()).contains("the password is empty");
    assertThat(run("pw\n", "identity", "create", "alice", "--role", "store:")).isEqualTo(64);
    assertThat(err.toString()).contains("'store:' is not a role scope");
    assertThat(run("pw\n", "identity", "create", "al ice")).isEqualTo(64);
    assertThat(err.toString()).contains("'al ice' is not an identity name");
    assertThat(run("pw\n", "identity", "create")).isEqualTo(64);
    assertThat(err.toString()).contains("<name>");

    assertThat(run("", "identity", "roles", "alice")).isEqualTo(2);
    assertThat(err.toString()).contains("there is no identity named 'alice'");
  }

  @Test
  void token_printsASignedTokenForTheIdentity_expiringAfterTheTtl() throws Exception {
    assertThat(run("pw\n", "identity", "create", "alice")).isZero();
    String id = YAML.readTree(out.toString()).path("id").asString();

    long before = Instant.now().getEpochSecond();
    assertThat(run("", "identity", "token", "alice", "--ttl", "120")).as(err.toString()).isZero();
    long after = Instant.now().getEpochSecond();

    String token = out.toString().strip();
    assertThat(token).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}");
    String[] parts = token.split("\\.");
    assertThat(new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[0])))
        .isEqualTo(new ObjectMapper().readTree("{\"alg\":\"HS256\",\"typ\":\"JWT\"}"));
    JsonNode payload = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
    assertThat(payload.path("sub").asString()).isEqualTo(id);
    assertThat(payload.path("name").asString()).isEqualTo("alice");
    assertThat(payload.path("exp").asLong()).isBetween(before + 120, after + 120);
  }

  @Test
  void token_signsWithASecretInItsOwnFile0600_thatTheStorageNeverHolds() throws Exception {
    assertThat(run("pw\n", "identity", "create", "alice")).isZero();

    assertThat(run("", "identity", "token", "alice")).as(err.toString()).isZero();

    Path file = context.resolve(".toa/secrets/token.key");
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(io.toa4j.spi.OwnerOnly.FILE);
    assertThat(Files.getPosixFilePermissions(file.getParent()))
        .isEqualTo(io.toa4j.spi.OwnerOnly.FOLDER);
    String secret = Files.readString(file).strip();
    try (var files = Files.list(context.resolve(".toa/storage"))) {
      for (Path stored : files.toList()) {
        assertThat(new String(Files.readAllBytes(stored), StandardCharsets.ISO_8859_1))
            .as("%s", stored)
            .doesNotContain(secret);
        assertThat(Files.getPosixFilePermissions(stored))
            .as("%s", stored)
            .isEqualTo(io.toa4j.spi.OwnerOnly.FILE);
      }
    }
  }

  @Test
  void token_unknownName_exits2_andALifetimeOutOfRange_exits64() {
    assertThat(run("pw\n", "identity", "create", "alice")).isZero();

    assertThat(run("", "identity", "token", "bob")).isEqualTo(2);
    assertThat(err.toString()).contains("there is no identity named 'bob'");
    assertThat(run("", "identity", "token", "alice", "--ttl", "0")).isEqualTo(64);
    assertThat(err.toString()).contains("1 to 2592000 seconds");
    assertThat(run("", "identity", "token", "alice", "--ttl", "soon")).isEqualTo(64);
    assertThat(err.toString()).contains("--ttl");
  }

  @Test
  void roles_addsAndRemoves_andPrintsTheRoles() throws Exception {
    assertThat(run("pw\n", "identity", "create", "alice", "--role", "store")).isZero();

    assertThat(
            run(
                "",
                "identity",
                "roles",
                "alice",
                "--add",
                "billing",
                "--add",
                "store:x",
                "--remove",
                "store"))
        .isZero();
    assertThat(out.toString()).isEqualTo("- billing\n- store:x\n");
    assertThat(run("", "identity", "roles", "alice", "--remove", "billing", "--remove", "store:x"))
        .isZero();
    assertThat(out.toString()).isEqualTo("[]\n");
    assertThat(run("", "identity", "roles", "alice", "--add", "a::b")).isEqualTo(64);
    assertThat(err.toString()).contains("'a::b' is not a role scope");
    assertThat(run("", "identity", "roles", "bob", "--add", "x")).isEqualTo(2);
    assertThat(err.toString()).contains("there is no identity named 'bob'");
  }

  @Test
  void identity_withoutACommand_exits64NamingThem() {
    assertThat(run("", "identity")).isEqualTo(64);
    assertThat(err.toString()).contains("name a command: create, token or roles");
  }

  private int run(String stdin, String... args) {
    out = new StringWriter();
    err = new StringWriter();
    String[] all = new String[args.length + 2];
    all[0] = "--context";
    all[1] = context.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    return Toa.commandLine(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)))
        .execute(all);
  }
}
