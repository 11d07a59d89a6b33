package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Query;
import io.toa4j.api.Request;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class WireTest {
  private static final String ID = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void call_withQueryInputAndIdentity_readsBackTheSameCall() throws Exception {
    Request request =
        new Request(
            Optional.of(
                new Query(
                    Optional.of(ID),
                    OptionalLong.of(3),
                    OptionalLong.empty(),
                    OptionalLong.empty())),
            Optional.of(
                JSON.readTree("{\"amount\":5000,\"ref\":\"order-1\",\"tags\":[\"a\",\"b\"]}")));
    Wire.Call call = new Wire.Call("billing.wallets.debit", request, Optional.of("call-1"));

    assertThat(Wire.readCall(Wire.call(call))).isEqualTo(call);
  }

  @Test
  void call_withoutIdentityOrRequest_readsBackEmpty() {
    Wire.Call call = new Wire.Call("billing.wallets.observe", Request.empty(), Optional.empty());

    Wire.Call read = Wire.readCall(Wire.call(call));

    assertThat(read.identity()).isEmpty();
    assertThat(read.request()).isEqualTo(Request.empty());
  }

  @Test
  void call_withPlainJavaInput_travelsAsTheSameTree() throws Exception {
    Wire.Call call = new Wire.Call("a.b.c", Request.input(Map.of("amount", 5)), Optional.empty());

    assertThat(Wire.readCall(Wire.call(call)).request().input())
        .contains(JSON.readTree("{\"amount\":5}"));
  }

  @Test
  void readCall_notJson_isMalformed() {
    assertThatThrownBy(() -> Wire.readCall(bytes("{ endpoint: ")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("not JSON");
  }

  @Test
  void readCall_withoutEndpoint_isMalformed() {
    assertThatThrownBy(() -> Wire.readCall(bytes("{\"request\":{}}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("endpoint");
  }

  @Test
  void readCall_requestWithUnknownField_isMalformedNamingTheField() {
    assertThatThrownBy(
            () -> Wire.readCall(bytes("{\"endpoint\":\"a.b.c\",\"request\":{\"inptu\":1}}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("request.inptu");
  }

  @Test
  void readCall_identityNotText_isMalformed() {
    assertThatThrownBy(() -> Wire.readCall(bytes("{\"endpoint\":\"a.b.c\",\"identity\":7}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("identity");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
