package io.toa4j.storage.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.UnreachableException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the MariaDB storage decides before any server answers — which server and as whom, passwords
 * hidden, table names — and what it says when none does: these run without MariaDB.
 */
class MariadbStorageOfflineTest {
  @Test
  void tables_ofALabel_arePrefixedWithNamespaceAndName_andWhatMariadbCannotNameIsRefused() {
    assertThat(Tables.of("billing.wallets").table("records"))
        .isEqualTo("`billing_wallets_records`");
    assertThat(Tables.of("Billing.Wallets").table("inbox")).isEqualTo("`Billing_Wallets_inbox`");
    assertThat(Tables.of("a".repeat(26) + "." + "b".repeat(26)).table("migrations"))
        .hasSize(64 + 2);
    assertThatThrownBy(() -> Tables.of("a".repeat(27) + "." + "b".repeat(26)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MariaDB allows 64")
        .hasMessageContaining("at most 52 characters");
    assertThatThrownBy(() -> Tables.of("billing_x.wallets"))
        .hasMessageContaining("is not a component label");
    assertThatThrownBy(() -> Tables.of("billing.`x"))
        .hasMessageContaining("is not a component label");
  }

  @Test
  void open_unreachableServer_failsNamingTheUrlButNotThePassword() {
    String secret = "s3cr3t-Pw";
    Map<String, String> options =
        Map.of(
            "url",
            "jdbc:mariadb://127.0.0.1:1/test?password=hunter22",
            "user",
            "me",
            "password",
            secret);

    assertThatThrownBy(
            () -> TestDatabase.provider().open(new StorageSettings(Path.of(".toa"), options)))
        .as("nothing listens: it may come up later, so a starting process may wait for it")
        .isInstanceOf(UnreachableException.class)
        .hasMessageContaining("MariaDB at jdbc:mariadb://127.0.0.1:1/test?password=****")
        .hasMessageContaining("as me")
        .satisfies(e -> assertThat(chain(e)).doesNotContain(secret).doesNotContain("hunter22"));
  }

  @Test
  void server_fromOptionsEnvironmentOrDefault_inThatOrder() {
    Map<String, String> env = Map.of(Server.ENVIRONMENT, "jdbc:mariadb://db:3306/prod");

    assertThat(Server.from(Map.of("url", "jdbc:mariadb://h/x", "user", "u"), env))
        .isEqualTo(
            new Server(
                "jdbc:mariadb://h/x", Optional.of("u"), Optional.empty(), 10, new Timeouts(6)));
    assertThat(Server.from(Map.of(), env))
        .isEqualTo(
            new Server(
                "jdbc:mariadb://db:3306/prod",
                Optional.empty(),
                Optional.empty(),
                10,
                new Timeouts(6)));
    assertThat(Server.from(Map.of(), Map.of()))
        .isEqualTo(
            new Server(
                "jdbc:mariadb://127.0.0.1:3306/test",
                Optional.of("root"),
                Optional.empty(),
                10,
                new Timeouts(6)));
    assertThat(
            Server.from(Map.of("url", "jdbc:mariadb://h:3307/shop?user=root&password=pw"), Map.of())
                .url())
        .isEqualTo("jdbc:mariadb://h:3307/shop?user=root&password=pw");
  }

  @Test
  void server_urlOfAnotherDriverOrWithoutADatabase_isRefused_withoutItsPassword() {
    assertThatThrownBy(() -> Server.from(Map.of("url", "jdbc:mysql://me:pw@h/x"), Map.of()))
        .hasMessageContaining("must be a JDBC URL naming a database")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@"));
    assertThatThrownBy(
            () ->
                Server.from(
                    Map.of("url", "jdbc:mariadb://h:3306/?user=root&password=pw"), Map.of()))
        .hasMessageContaining("must be a JDBC URL naming a database")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("=pw"));
    assertThatThrownBy(() -> Server.from(Map.of("url", "jdbc:mariadb://h:3306"), Map.of()))
        .hasMessageContaining("must be a JDBC URL naming a database");
  }

  @Test
  void server_optionsAreCheckedByName() {
    assertThat(Server.from(Map.of("pool-size", "4"), Map.of()).poolSize()).isEqualTo(4);
    assertThatThrownBy(() -> Server.from(Map.of("pool-size", "0"), Map.of()))
        .hasMessageContaining("mariadb storage option pool-size is '0'")
        .hasMessageContaining("from 1 to 1000");
    assertThatThrownBy(() -> Server.from(Map.of("pool", "4"), Map.of()))
        .hasMessageContaining("The mariadb storage has no option 'pool'")
        .hasMessageContaining("[password, pool-size, statement-timeout-seconds, url, user]");
    assertThat(
            Server.from(Map.of("statement-timeout-seconds", "60"), Map.of())
                .timeouts()
                .socketSeconds())
        .isEqualTo(62);
    assertThatThrownBy(() -> Server.from(Map.of("statement-timeout-seconds", "0"), Map.of()))
        .hasMessage(
            "The mariadb storage option statement-timeout-seconds is '0'; it must be a whole number of seconds"
                + " from 1 to 86400 (default 6)");
  }

  @Test
  void timeouts_theServerStopsAStatementAndALockWait_beforeTheClientGivesUpOnTheConnection() {
    assertThat(new Timeouts(6).sessionSettings())
        .contains(
            "max_statement_time = 6",
            "innodb_lock_wait_timeout = 6",
            "idle_transaction_timeout = 8");
  }

  @Test
  void server_mask_hidesPasswordsInEveryPlaceTheyHide() {
    Server server =
        new Server(
            "jdbc:mariadb://h/x", Optional.of("u"), Optional.of("topsecret"), 10, new Timeouts(6));

    assertThat(server.mask("auth failed with topsecret")).isEqualTo("auth failed with ****");
    assertThat(server.mask("jdbc:mariadb://h/x?user=u&password=abc&useSsl=true"))
        .isEqualTo("jdbc:mariadb://h/x?user=u&password=****&useSsl=true");
    assertThat(server.mask("jdbc:mariadb://u:abc@h/x")).isEqualTo("jdbc:mariadb://u:****@h/x");
    assertThat(server.toString()).isEqualTo("jdbc:mariadb://h/x as u");
  }

  private static String chain(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable at = e; at != null; at = at.getCause()) text.append(at).append('\n');
    return text.toString();
  }
}
