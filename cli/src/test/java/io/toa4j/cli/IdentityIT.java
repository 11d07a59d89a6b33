package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toa identity} as a person uses it: identities made and changed from the shell, then
 * admitted (or not) by the gateway of a {@code toa run} in another process, and changed while it
 * runs.
 */
class IdentityIT {
  @TempDir Path temp;
  private Path context;
  private Path logs;
  private ToaShell toa;

  @BeforeEach
  void context() throws IOException {
    context = Shelf.write(temp, "store:items");
    logs = Files.createDirectories(temp.resolve("logs"));
    toa = new ToaShell(logs);
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void identitiesMadeInTheShell_areAdmittedByARunningGateway_andRoleChangesReachItAtOnce()
      throws Exception {
    ToaShell.Result created =
        toa.runWithInput(
            context, "pw-of-alice\n", "identity", "create", "alice", "--role", "store");
    assertThat(created.exitCode()).as("%s", created).isZero();
    assertThat(created.yaml().path("roles").toString()).isEqualTo("[\"store\"]");
    ToaShell.Result token = toa.run(context, "identity", "token", "alice", "--ttl", "600");
    assertThat(token.exitCode()).as("%s", token).isZero();
    String bearer = "Bearer " + token.out().strip();

    int port = toa.serve(context, "run", Map.of()).port();
    String path = Shelf.PATH;
    assertThat(get(port, path, bearer).statusCode()).isEqualTo(200);
    assertThat(get(port, path, basic("alice", "pw-of-alice")).statusCode()).isEqualTo(200);
    assertThat(get(port, path, basic("alice", "pw-of-bob")).statusCode()).isEqualTo(401);
    assertThat(get(port, path, null).statusCode()).isEqualTo(401);
    HttpResponse<String> issued =
        Shelf.send(port, "POST", "/.toa/token", basic("alice", "pw-of-alice"));
    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(200);
    assertThat(issued.body()).contains("\"token\"");

    ToaShell.Result removed =
        toa.run(context, "identity", "roles", "alice", "--remove", "store", "--add", "store:other");
    assertThat(removed.exitCode()).as("%s", removed).isZero();
    assertThat(removed.out()).isEqualTo("- store:other\n");
    assertThat(get(port, path, bearer).statusCode()).isEqualTo(403);
    assertThat(get(port, path, basic("alice", "pw-of-alice")).statusCode()).isEqualTo(403);

    ToaShell.Result bob =
        toa.runWithInput(
            context, "pw-of-bob\n", "identity", "create", "bob", "--role", "store:items");
    assertThat(bob.exitCode()).as("%s", bob).isZero();
    assertThat(get(port, path, basic("bob", "pw-of-bob")).statusCode()).isEqualTo(200);
  }

  @Test
  void create_withThePasswordAsAnArgument_isNotAccepted_andAnEmptyStdinExits64() {
    ToaShell.Result asArgument = toa.run(context, "identity", "create", "alice", "s3cret");
    assertThat(asArgument.exitCode()).as("%s", asArgument).isEqualTo(64);
    assertThat(asArgument.err()).contains("s3cret"); // picocli names the unmatched argument

    ToaShell.Result empty = toa.run(context, "identity", "create", "alice");
    assertThat(empty.exitCode()).as("%s", empty).isEqualTo(64);
    assertThat(empty.err()).contains("the password is empty");
  }

  private static String basic(String name, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static HttpResponse<String> get(int port, String path, String authorization)
      throws Exception {
    return Shelf.send(port, "GET", path, authorization);
  }
}
