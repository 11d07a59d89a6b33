package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;

/** Requests that do not fit are refused with a clear message, and change nothing. */
class RequestTest {
  static final String WALLET = Shop.WALLET;
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;
  Toa shop;

  @BeforeEach
  void boot() {
    shop = Toa.builder().directory(Shop.copyTo(directory)).build();
    shop.call("billing.wallets.credit", Request.of(WALLET, Shop.credit(100, "a")));
  }

  @AfterEach
  void close() {
    assertThat(Shop.output(shop.call("billing.wallets.observe", Request.id(WALLET))))
        .containsEntry("balance", 100L)
        .containsEntry("VERSION", 1L);
    shop.close();
  }

  private static Failure failure(Runnable call) {
    try {
      call.run();
    } catch (Failure f) {
      return f;
    }
    throw new AssertionError("the call did not fail");
  }

  @Test
  void call_unknownComponent_failsNamingTheComponents() {
    Failure f = failure(() -> shop.call("billing.walets.credit", Request.id(WALLET)));

    assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT);
    assertThat(f)
        .hasMessageContaining("no component 'billing.walets'")
        .hasMessageContaining("billing.wallets");
  }

  @Test
  void call_unknownOperation_failsNamingTheOperations() {
    Failure f = failure(() -> shop.call("billing.wallets.refund", Request.id(WALLET)));

    assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT);
    assertThat(f)
        .hasMessageContaining("no operation 'refund'")
        .hasMessageContaining("credit, debit");
  }

  @Test
  void call_inputBreakingTheSchema_failsWithThePath() {
    Failure f =
        failure(
            () ->
                shop.call(
                    "billing.wallets.credit",
                    Request.of(WALLET, Map.of("amount", 0, "type", "gift", "ref", "x"))));

    assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT);
    assertThat(f).hasMessageContaining("/amount").hasMessageContaining("/type");
  }

  @Test
  void credit_amountOverTheShopsMaximum_isAContractFailureNamingIt_andChangesNothing() {
    Failure f =
        failure(
            () ->
                shop.call(
                    "billing.wallets.credit",
                    Request.of(WALLET, Shop.credit(Long.MAX_VALUE - 50, "huge"))));

    assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT);
    assertThat(f).hasMessageContaining("/amount").hasMessageContaining("1000000000");
  }

  @Test
  void credit_beyondWhatTheBalanceHolds_isRefusedWithBalanceLimit_andChangesNothing() {
    String full = "ffffffffffffffffffffffffffffffff";
    shop.call("billing.wallets.assign", Request.of(full, Map.of("balance", Long.MAX_VALUE - 10)));

    Reply reply =
        shop.call("billing.wallets.credit", Request.of(full, Shop.credit(11, "one-too-many")));

    assertThat(reply)
        .isInstanceOfSatisfying(
            Reply.Refused.class, r -> assertThat(r.refusal().code()).isEqualTo("BALANCE_LIMIT"));
    assertThat(Shop.output(shop.call("billing.wallets.observe", Request.id(full))))
        .containsEntry("balance", Long.MAX_VALUE - 10)
        .containsEntry("VERSION", 1L);
    assertThat(
            Shop.output(
                shop.call(
                    "billing.wallets.credit", Request.of(full, Shop.credit(10, "to-the-brim")))))
        .containsEntry("balance", Long.MAX_VALUE);
  }

  @Test
  void call_withoutTheRequiredQuery_fails() {
    Failure f =
        failure(() -> shop.call("billing.wallets.credit", Request.input(Shop.credit(1, "x"))));

    assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT);
    assertThat(f).hasMessageContaining("requires a query");
  }

  @Test
  void parse_notARequestMap_fails() {
    assertThatThrownBy(() -> Requests.parse(JSON.readTree("[1, 2]")))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageContaining("a request is a map");
  }

  @Test
  void parse_unknownQueryField_fails() {
    assertThatThrownBy(
            () ->
                Requests.parse(
                    JSON.readTree("{\"query\": {\"id\": \"" + WALLET + "\", \"colour\": 1}}")))
        .hasMessageContaining("query.colour is not a query field");
  }

  @Test
  void parse_idThatIsNotHex_fails() {
    assertThatThrownBy(() -> Requests.parse(JSON.readTree("{\"query\": {\"id\": \"wallet-1\"}}")))
        .hasMessageContaining("query.id must be 32 hexadecimal characters");
  }

  @Test
  void parse_requestWithQueryAndInput_keepsBoth() throws Exception {
    Request request =
        Requests.parse(
            JSON.readTree(
                "{\"query\": {\"id\": \""
                    + WALLET.toUpperCase()
                    + "\", \"version\": 1}, \"input\": {\"amount\": 5}}"));

    assertThat(request.query().orElseThrow().id()).contains(WALLET);
    assertThat(request.query().orElseThrow().version()).hasValue(1);
    assertThat(request.input()).isPresent();
  }
}
