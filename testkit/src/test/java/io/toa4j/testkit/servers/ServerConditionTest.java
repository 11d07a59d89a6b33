package io.toa4j.testkit.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.io.TempDir;

/** The condition against real sockets: a port nothing listens on, and one that listens. */
class ServerConditionTest {
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  /** A loopback port nothing listens on: taken from the system, then let go. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static ServerSocket listening() throws IOException {
    return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  private ServerCondition condition(Map<String, String> environment) {
    return new ServerCondition(
        new Probe(environment, new PrintStream(printed, true, StandardCharsets.UTF_8)));
  }

  private String printed() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  private static Map<String, String> postgresAt(int port) {
    return Map.of(
        "TOA_POSTGRES_URL",
        "jdbc:postgresql://127.0.0.1:" + port + "/test?user=me&password=s3cret");
  }

  @Test
  void nothingListens_disablesNamingServerAndAddress_andSaysSoAtOnce() throws IOException {
    int port = closedPort();

    ConditionEvaluationResult result =
        condition(postgresAt(port)).evaluate(List.of(Server.POSTGRES));

    assertThat(result.isDisabled()).isTrue();
    assertThat(result.getReason())
        .hasValue(
            "NOT RUN: PostgreSQL does not answer at 127.0.0.1:"
                + port
                + ", from TOA_POSTGRES_URL (start it, or set TOA_POSTGRES_URL)");
    assertThat(printed())
        .contains("!! NOT RUN: PostgreSQL does not answer at 127.0.0.1:" + port)
        .contains("pg_ctlcluster")
        .contains("TOA_REQUIRE_SERVERS=1")
        .doesNotContain("s3cret");
  }

  @Test
  void nothingListens_serversRequired_failsNamingServerAddressAndHowToStartIt() throws IOException {
    int port = closedPort();
    Map<String, String> environment = new HashMap<>(postgresAt(port));
    environment.put("TOA_REQUIRE_SERVERS", "1");
    ServerCondition condition = condition(environment);

    assertThatThrownBy(() -> condition.evaluate(List.of(Server.POSTGRES)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContainingAll(
            "PostgreSQL does not answer at 127.0.0.1:" + port + ", from TOA_POSTGRES_URL",
            "TOA_REQUIRE_SERVERS is set",
            "pg_ctlcluster",
            "or set TOA_POSTGRES_URL to one that answers")
        .hasMessageNotContaining("s3cret");
    assertThat(printed()).as("the failure says it; no banner besides").isEmpty();
  }

  @Test
  void emptyRequirement_skipsAsIfUnset() throws IOException {
    Map<String, String> environment = new HashMap<>(postgresAt(closedPort()));
    environment.put("TOA_REQUIRE_SERVERS", "");

    assertThat(condition(environment).evaluate(List.of(Server.POSTGRES)).isDisabled()).isTrue();
  }

  @Test
  void somethingListens_enables_andPrintsNothing() throws IOException {
    try (ServerSocket postgres = listening();
        ServerSocket rabbitmq = listening()) {
      ServerCondition condition =
          condition(
              Map.of(
                  "TOA_POSTGRES_URL",
                      "jdbc:postgresql://127.0.0.1:" + postgres.getLocalPort() + "/test",
                  "TOA_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:" + rabbitmq.getLocalPort()));

      assertThat(condition.evaluate(List.of(Server.POSTGRES, Server.RABBITMQ)).isDisabled())
          .isFalse();
    }
    assertThat(printed()).isEmpty();
  }

  @Test
  void oneOfTwoMissing_disablesNamingOnlyIt_andAnnouncesItOnce() throws IOException {
    int closed = closedPort();
    try (ServerSocket postgres = listening()) {
      ServerCondition condition =
          condition(
              Map.of(
                  "TOA_POSTGRES_URL",
                      "jdbc:postgresql://127.0.0.1:" + postgres.getLocalPort() + "/test",
                  "TOA_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:" + closed));

      ConditionEvaluationResult first =
          condition.evaluate(List.of(Server.POSTGRES, Server.RABBITMQ));
      ConditionEvaluationResult second = condition.evaluate(List.of(Server.RABBITMQ));

      assertThat(first.getReason())
          .hasValue(
              "NOT RUN: RabbitMQ does not answer at 127.0.0.1:"
                  + closed
                  + ", from TOA_RABBITMQ_URL (start it, or set TOA_RABBITMQ_URL)");
      assertThat(second.isDisabled()).isTrue();
    }
    assertThat(printed()).doesNotContain("PostgreSQL").doesNotContain("guest:guest");
    assertThat(printed().split("NOT RUN: RabbitMQ", -1)).as("one banner").hasSize(2);
  }

  @Test
  void answer_isRememberedForTheJvm() throws IOException {
    ServerCondition condition;
    try (ServerSocket postgres = listening()) {
      condition = condition(postgresAt(postgres.getLocalPort()));
      assertThat(condition.evaluate(List.of(Server.POSTGRES)).isDisabled()).isFalse();
    }

    assertThat(condition.evaluate(List.of(Server.POSTGRES)).isDisabled())
        .as("asked once, not again")
        .isFalse();
  }

  @Test
  void malformedUrl_failsNamingTheVariable_neverSkips() {
    ServerCondition condition =
        condition(Map.of("TOA_POSTGRES_URL", "postgres://me:s3cret@db/test"));

    assertThatThrownBy(() -> condition.evaluate(List.of(Server.POSTGRES)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("The URL from TOA_POSTGRES_URL must be a JDBC URL")
        .hasMessageNotContaining("s3cret");
  }

  /** A folder with an executable rabbitmqctl in it, to stand for the PATH. */
  private static String pathWithRabbitmqctl(Path folder) throws IOException {
    Files.createFile(
        folder.resolve("rabbitmqctl"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    return folder.toString();
  }

  @Test
  void control_brokerOnAnotherMachine_disablesSayingRabbitmqctlCannotReachIt(@TempDir Path bin)
      throws IOException {
    ServerCondition condition =
        condition(
            Map.of(
                "TOA_RABBITMQ_URL",
                "amqp://app:s3cret@broker.example:5673/prod",
                "PATH",
                pathWithRabbitmqctl(bin)));

    ConditionEvaluationResult result = condition.evaluate(List.of(Server.RABBITMQ_CONTROL));

    assertThat(result.isDisabled()).isTrue();
    assertThat(result.getReason())
        .hasValue(
            "NOT RUN: rabbitmqctl cannot control RabbitMQ at broker.example:5673, from TOA_RABBITMQ_URL: it controls only a broker"
                + " on this machine (run them where the broker and rabbitmqctl are, or set TOA_RABBITMQ_URL to a broker on this machine)");
    assertThat(printed())
        .contains("!! NOT RUN: rabbitmqctl cannot control RabbitMQ at broker.example:5673")
        .doesNotContain("s3cret");
  }

  @Test
  void control_brokerOnAnotherMachine_serversRequired_failsSayingSo() throws IOException {
    ServerCondition condition =
        condition(Map.of("TOA_RABBITMQ_URL", "amqp://broker.example", "TOA_REQUIRE_SERVERS", "1"));

    assertThatThrownBy(() -> condition.evaluate(List.of(Server.RABBITMQ_CONTROL)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContainingAll(
            "rabbitmqctl cannot control RabbitMQ at broker.example:5672, from TOA_RABBITMQ_URL",
            "TOA_REQUIRE_SERVERS is set",
            "or set TOA_RABBITMQ_URL to a broker on this machine");
  }

  @Test
  void control_localBroker_needsRabbitmqctlOnThePath(@TempDir Path bin, @TempDir Path empty)
      throws IOException {
    String path = empty + java.io.File.pathSeparator + pathWithRabbitmqctl(bin);

    assertThat(
            condition(Map.of("PATH", path)).evaluate(List.of(Server.RABBITMQ_CONTROL)).isDisabled())
        .isFalse();
    assertThat(
            condition(Map.of("TOA_RABBITMQ_URL", "amqp://localhost:5673", "PATH", path))
                .evaluate(List.of(Server.RABBITMQ_CONTROL))
                .isDisabled())
        .isFalse();
    assertThat(
            condition(Map.of("PATH", empty.toString()))
                .evaluate(List.of(Server.RABBITMQ_CONTROL))
                .getReason())
        .hasValue(
            "NOT RUN: there is no rabbitmqctl on the PATH to control RabbitMQ at 127.0.0.1:5672, the default"
                + " (run them where the broker and rabbitmqctl are, or set TOA_RABBITMQ_URL to a broker on this machine)");
  }
}
