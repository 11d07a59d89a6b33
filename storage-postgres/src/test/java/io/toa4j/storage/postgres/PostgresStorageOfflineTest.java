package io.toa4j.storage.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.UnreachableException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL storage decides before any server answers — which server and as whom,
 * passwords hidden, schema names — and what it says when none does: these run without PostgreSQL.
 */
class PostgresStorageOfflineTest {
  @Test
  void schema_ofALabel_joinsNamespaceAndNameAndRefusesWhatPostgresCannotName() {
    assertThat(Schema.of("billing.wallets").name()).isEqualTo("billing_wallets");
    assertThat(Schema.of("Billing.Wallets").quoted()).isEqualTo("\"Billing_Wallets\"");
    assertThatThrownBy(() -> Schema.of("a".repeat(32) + "." + "b".repeat(32)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PostgreSQL allows 63");
  }

  @Test
  void open_unreachableServer_failsNamingTheUrlButNotThePassword() {
    String secret = "s3cr3t-Pw";
    Map<String, String> options =
        Map.of(
            "url",
            "jdbc:postgresql://127.0.0.1:1/test?password=hunter22",
            "user",
            "me",
            "password",
            secret);

    assertThatThrownBy(
            () -> TestDatabase.provider().open(new StorageSettings(Path.of(".toa"), options)))
        .as("nothing listens: it may come up later, so a starting process may wait for it")
        .isInstanceOf(UnreachableException.class)
        .hasMessageContaining("jdbc:postgresql://127.0.0.1:1/test?password=****")
        .hasMessageContaining("as me")
        .satisfies(e -> assertThat(chain(e)).doesNotContain(secret).doesNotContain("hunter22"));
  }

  @Test
  void server_fromOptionsEnvironmentOrDefault_inThatOrder() {
    Map<String, String> env = Map.of(Server.ENVIRONMENT, "jdbc:postgresql://db:5432/prod");

    assertThat(Server.from(Map.of("url", "jdbc:postgresql://h/x", "user", "u"), env))
        .isEqualTo(new Server("jdbc:postgresql://h/x", Optional.of("u"), Optional.empty(), 10));
    assertThat(Server.from(Map.of(), env))
        .isEqualTo(
            new Server("jdbc:postgresql://db:5432/prod", Optional.empty(), Optional.empty(), 10));
    assertThat(Server.from(Map.of(), Map.of()))
        .isEqualTo(
            new Server(
                "jdbc:postgresql://127.0.0.1:5432/test",
                Optional.of("postgres"),
                Optional.empty(),
                10));
    assertThatThrownBy(() -> Server.from(Map.of("url", "postgres://me:pw@h/x"), Map.of()))
        .hasMessageContaining("must be a JDBC URL")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@"));
  }

  @Test
  void server_poolSize_isTakenAndCheckedByName() {
    assertThat(Server.from(Map.of("pool-size", "4"), Map.of()).poolSize()).isEqualTo(4);
    assertThatThrownBy(() -> Server.from(Map.of("pool-size", "0"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pool-size is '0'")
        .hasMessageContaining("from 1 to 1000");
  }

  @Test
  void server_unknownOption_isRefusedByNameWithTheKnownOnes() {
    assertThatThrownBy(() -> Server.from(Map.of("pool", "4"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no option 'pool'")
        .hasMessageContaining("[password, pool-size, statement-timeout-seconds, url, user]");
  }

  @Test
  void server_statementTimeout_isTakenAndCheckedByName_andTheSocketTimeoutIsTwoSecondsMore() {
    assertThat(Server.from(Map.of(), Map.of()).timeouts()).isEqualTo(new Timeouts(6));
    assertThat(Server.from(Map.of(), Map.of()).timeouts().socketSeconds()).isEqualTo(8);
    assertThat(
            Server.from(Map.of("statement-timeout-seconds", "60"), Map.of())
                .timeouts()
                .socketSeconds())
        .isEqualTo(62);
    assertThatThrownBy(() -> Server.from(Map.of("statement-timeout-seconds", "0"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The postgres storage option statement-timeout-seconds is '0'; it must be a whole number of seconds"
                + " from 1 to 86400 (default 6)");
    assertThatThrownBy(() -> Server.from(Map.of("statement-timeout-seconds", "8s"), Map.of()))
        .hasMessageContaining("statement-timeout-seconds is '8s'");
  }

  @Test
  void server_mask_hidesPasswordsInEveryPlaceTheyHide() {
    Server server =
        new Server("jdbc:postgresql://h/x", Optional.of("u"), Optional.of("topsecret"), 10);

    assertThat(server.mask("auth failed with topsecret")).isEqualTo("auth failed with ****");
    assertThat(server.mask("jdbc:postgresql://h/x?user=u&password=abc&ssl=true"))
        .isEqualTo("jdbc:postgresql://h/x?user=u&password=****&ssl=true");
    assertThat(server.mask("postgresql://u:abc@h/x")).isEqualTo("postgresql://u:****@h/x");
    assertThat(server.toString()).isEqualTo("jdbc:postgresql://h/x as u");
  }

  private static String chain(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable at = e; at != null; at = at.getCause()) text.append(at).append('\n');
    return text.toString();
  }
}
