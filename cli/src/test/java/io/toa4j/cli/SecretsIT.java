package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token secret and the files under {@code .toa/} as an operator meets them: {@code toa identity
 * token} in the shell and the gateway of a {@code toa run} in another process sign with the same
 * secret, every file either writes is its owner's alone, and replacing the secret invalidates every
 * token issued before.
 */
class SecretsIT {
  @TempDir Path temp;
  private Path context;
  private Path logs;
  private ToaShell toa;

  @BeforeEach
  void context() throws IOException {
    context = Shelf.write(temp, "store");
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs);
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void
      toaRun_andTheShell_writeOnlyOwnerOnlyFiles_shareTheDefaultSecret_andDeletingItInvalidatesEveryToken()
          throws Exception {
    assertThat(
            toa.runWithInput(context, "pw\n", "identity", "create", "alice", "--role", "store")
                .exitCode())
        .isZero();
    String fromTheShell = token(Map.of());
    ToaShell.Served run = toa.serve(context, "first", Map.of());
    assertThat(get(run.port(), "Bearer " + fromTheShell).statusCode()).isEqualTo(200);

    Map<Path, Set<PosixFilePermission>> modes = modes(context.resolve(".toa"));
    assertThat(modes)
        .containsKeys(
            context.resolve(".toa/run.json"),
            context.resolve(".toa/secrets/token.key"),
            context.resolve(".toa/storage/system.identities.db"),
            context.resolve(".toa/bus.db"));
    assertThat(modes.keySet()).anyMatch(p -> p.toString().endsWith(".class"));
    modes.forEach(
        (path, mode) ->
            assertThat(mode)
                .as(path.toString())
                .isEqualTo(Files.isDirectory(path) ? OwnerOnly.FOLDER : OwnerOnly.FILE));

    run.stop();
    Files.delete(context.resolve(".toa/secrets/token.key"));
    ToaShell.Served rotated = toa.serve(context, "rotated", Map.of());

    HttpResponse<String> refused = get(rotated.port(), "Bearer " + fromTheShell);
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).contains("the bearer token's signature does not match");
    assertThat(get(rotated.port(), "Bearer " + token(Map.of())).statusCode()).isEqualTo(200);
  }

  @Test
  void
      secretFileNamedByTheOperator_signsForShellAndGateway_andReplacingItsSecretInvalidatesEveryToken()
          throws Exception {
    Path file =
        Files.createFile(
            temp.resolve("token.key"), PosixFilePermissions.asFileAttribute(OwnerOnly.FILE));
    Files.writeString(file, randomSecret());
    Map<String, String> env = Map.of("TOA_TOKEN_SECRET_FILE", file.toString());
    assertThat(
            toa.runWithInput(context, "pw\n", "identity", "create", "alice", "--role", "store")
                .exitCode())
        .isZero();
    String before = token(env);

    ToaShell.Served run = toa.serve(context, "named", env);
    assertThat(get(run.port(), "Bearer " + before).statusCode()).isEqualTo(200);
    assertThat(ToaShell.read(logs.resolve("named.err")))
        .contains("Bearer tokens are signed with the token secret in " + file);
    assertThat(context.resolve(".toa/secrets")).doesNotExist();
    run.stop();

    Files.writeString(file, randomSecret());
    ToaShell.Served rotated = toa.serve(context, "renamed", env);
    assertThat(get(rotated.port(), "Bearer " + before).statusCode()).isEqualTo(401);
    assertThat(get(rotated.port(), "Bearer " + token(env)).statusCode()).isEqualTo(200);
  }

  @Test
  void secretVariableTooShort_stopsToaRunAtStart_sayingWhy_withoutTheValue() throws Exception {
    String shortSecret = Base64.getEncoder().encodeToString(new byte[16]);
    Process run =
        toa.start(
            context,
            logs.resolve("short.out"),
            logs.resolve("short.err"),
            Map.of("TOA_TOKEN_SECRET", shortSecret),
            "run",
            "--http",
            "127.0.0.1:0");

    assertThat(run.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(run.exitValue()).isNotZero();
    assertThat(ToaShell.read(logs.resolve("short.err")))
        .contains(
            "the variable TOA_TOKEN_SECRET holds a token secret of 128 bits; it needs at least 256")
        .doesNotContain(shortSecret);
  }

  private String token(Map<String, String> env) {
    Path out = logs.resolve("token-" + System.nanoTime() + ".out");
    Path err = logs.resolve("token-" + System.nanoTime() + ".err");
    Process process = toa.start(context, out, err, env, "identity", "token", "alice");
    try {
      assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertThat(process.exitValue()).as(ToaShell.read(err)).isZero();
    return ToaShell.read(out).strip();
  }

  private static String randomSecret() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key) + "\n";
  }

  private static Map<Path, Set<PosixFilePermission>> modes(Path root) throws IOException {
    Map<Path, Set<PosixFilePermission>> modes = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator)
        modes.put(path, Files.getPosixFilePermissions(path));
    }
    return modes;
  }

  private static HttpResponse<String> get(int port, String authorization) throws Exception {
    return Shelf.send(port, "GET", Shelf.PATH, authorization);
  }
}
