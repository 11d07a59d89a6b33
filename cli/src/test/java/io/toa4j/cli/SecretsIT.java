package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  private static final Pattern GATEWAY = Pattern.compile("HTTP gateway on 127\\.0\\.0\\.1:(\\d+)");
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final String PATH = "/test/shelf/5e1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f/";

  @TempDir Path temp;
  private Path context;
  private Path logs;
  private ToaShell toa;

  @BeforeEach
  void context() throws IOException {
    context = Files.createDirectories(temp.resolve("shelf"));
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs);
    write("context.toa.yaml", "name: shelf\n");
    write("components/test.shelf/manifest.toa.yaml", """
        entity:
          associated: true
          properties:
            text: { type: string }
        exposition:
          /:id:
            auth:role: store
            io:output: [id]
            GET: observe
        """);
    write("components/test.shelf/Item.java", """
        package test.shelf;
        public class Item extends io.toa4j.api.Entry { public String text; }
        """);
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void toaRun_andTheShell_writeOnlyOwnerOnlyFiles_shareTheDefaultSecret_andDeletingItInvalidatesEveryToken() throws Exception {
    assertThat(toa.runWithInput(context, "pw\n", "identity", "create", "alice", "--role", "store").exitCode()).isZero();
    String fromTheShell = token(Map.of());
    Run run = startRun("first", Map.of());
    assertThat(get(run.port(), "Bearer " + fromTheShell).statusCode()).isEqualTo(200);

    Map<Path, Set<PosixFilePermission>> modes = modes(context.resolve(".toa"));
    assertThat(modes).containsKeys(context.resolve(".toa/run.json"), context.resolve(".toa/secrets/token.key"),
        context.resolve(".toa/storage/system.identities.db"), context.resolve(".toa/bus.db"));
    assertThat(modes.keySet()).anyMatch(p -> p.toString().endsWith(".class"));
    modes.forEach((path, mode) -> assertThat(mode).as(path.toString()).isEqualTo(Files.isDirectory(path) ? OwnerOnly.FOLDER : OwnerOnly.FILE));

    stopRun(run);
    Files.delete(context.resolve(".toa/secrets/token.key"));
    Run rotated = startRun("rotated", Map.of());

    HttpResponse<String> refused = get(rotated.port(), "Bearer " + fromTheShell);
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).contains("the bearer token's signature does not match");
    assertThat(get(rotated.port(), "Bearer " + token(Map.of())).statusCode()).isEqualTo(200);
  }

  @Test
  void secretFileNamedByTheOperator_signsForShellAndGateway_andReplacingItsSecretInvalidatesEveryToken() throws Exception {
    Path file = Files.createFile(temp.resolve("token.key"), PosixFilePermissions.asFileAttribute(OwnerOnly.FILE));
    Files.writeString(file, randomSecret());
    Map<String, String> env = Map.of("TOA_TOKEN_SECRET_FILE", file.toString());
    assertThat(toa.runWithInput(context, "pw\n", "identity", "create", "alice", "--role", "store").exitCode()).isZero();
    String before = token(env);

    Run run = startRun("named", env);
    assertThat(get(run.port(), "Bearer " + before).statusCode()).isEqualTo(200);
    assertThat(ToaShell.read(logs.resolve("named.err"))).contains("Bearer tokens are signed with the token secret in " + file);
    assertThat(context.resolve(".toa/secrets")).doesNotExist();
    stopRun(run);

    Files.writeString(file, randomSecret());
    Run rotated = startRun("renamed", env);
    assertThat(get(rotated.port(), "Bearer " + before).statusCode()).isEqualTo(401);
    assertThat(get(rotated.port(), "Bearer " + token(env)).statusCode()).isEqualTo(200);
  }

  @Test
  void secretVariableTooShort_stopsToaRunAtStart_sayingWhy_withoutTheValue() throws Exception {
    String shortSecret = Base64.getEncoder().encodeToString(new byte[16]);
    Process run = toa.start(context, logs.resolve("short.out"), logs.resolve("short.err"), Map.of("TOA_TOKEN_SECRET", shortSecret),
        "run", "--http", "127.0.0.1:0");

    assertThat(run.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(run.exitValue()).isNotZero();
    assertThat(ToaShell.read(logs.resolve("short.err")))
        .contains("the variable TOA_TOKEN_SECRET holds a token secret of 128 bits; it needs at least 256")
        .doesNotContain(shortSecret);
  }

  private record Run(Process process, int port) {}

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

  /** Starts {@code toa run} on a free port and answers it once it serves. */
  private Run startRun(String name, Map<String, String> env) {
    Path err = logs.resolve(name + ".err");
    Process run = toa.start(context, logs.resolve(name + ".out"), err, env, "run", "--http", "127.0.0.1:0");
    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> {
          if (!run.isAlive()) throw new AssertionError("toa run ended with " + run.exitValue() + ":\n" + ToaShell.read(err));
          return ToaShell.read(err).contains("is served by pid " + run.pid());
        });
    Matcher port = GATEWAY.matcher(ToaShell.read(err));
    assertThat(port.find()).as(ToaShell.read(err)).isTrue();
    return new Run(run, Integer.parseInt(port.group(1)));
  }

  private static void stopRun(Run run) throws InterruptedException {
    run.process().destroy();
    assertThat(run.process().waitFor(60, TimeUnit.SECONDS)).as("toa run stops on SIGTERM").isTrue();
  }

  private static String randomSecret() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key) + "\n";
  }

  private static Map<Path, Set<PosixFilePermission>> modes(Path root) throws IOException {
    Map<Path, Set<PosixFilePermission>> modes = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator) modes.put(path, Files.getPosixFilePermissions(path));
    }
    return modes;
  }

  private static HttpResponse<String> get(int port, String authorization) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH)).header("authorization", authorization).GET().build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private void write(String file, String text) throws IOException {
    Path path = context.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
