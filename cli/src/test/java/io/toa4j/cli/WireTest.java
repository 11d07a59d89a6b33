package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.json.JsonMapper;
import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WireTest {
  private static final String ID = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void call_withQueryInputAndIdentity_readsBackTheSameCall() throws Exception {
    Request request =
        new Request(
            Optional.of(new Query(Optional.of(ID), OptionalLong.of(3), OptionalLong.empty(), OptionalLong.empty())),
            Optional.of(JSON.readTree("{\"amount\":5000,\"ref\":\"order-1\",\"tags\":[\"a\",\"b\"]}")));
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

    assertThat(Wire.readCall(Wire.call(call)).request().input()).contains(JSON.readTree("{\"amount\":5}"));
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
    assertThatThrownBy(() -> Wire.readCall(bytes("{\"endpoint\":\"a.b.c\",\"request\":{\"inptu\":1}}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("request.inptu");
  }

  @Test
  void readCall_identityNotText_isMalformed() {
    assertThatThrownBy(() -> Wire.readCall(bytes("{\"endpoint\":\"a.b.c\",\"identity\":7}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("identity");
  }

  @Test
  void reply_output_readsBackThePlainValues() {
    Map<String, Object> record = Map.of("id", ID, "balance", 5000, "paid", Map.of("order-1", 10), "tags", List.of("x"));

    Reply read = Wire.readReply(Wire.reply(new Reply.Output(Optional.of(record))));

    assertThat(read).isEqualTo(new Reply.Output(Optional.of(record)));
  }

  @Test
  void reply_emptyOutput_readsBackEmpty() {
    assertThat(Wire.readReply(Wire.reply(new Reply.Output(Optional.empty())))).isEqualTo(new Reply.Output(Optional.empty()));
  }

  @Test
  void reply_refusalWithCause_readsBackCodeAndCause() {
    Reply refused = new Reply.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 10)));

    assertThat(Wire.readReply(Wire.reply(refused))).isEqualTo(refused);
  }

  @Test
  void reply_refusalWithoutCause_readsBackWithoutCause() {
    Reply refused = new Reply.Refused(Refusal.of("NOT_PACKED"));

    assertThat(Wire.readReply(Wire.reply(refused))).isEqualTo(refused);
  }

  @Test
  void readReply_failure_throwsTheFailureWithItsCodeAndMessage() {
    byte[] body = Wire.failure(Failure.Code.ENDPOINT, "context shop has no component 'billing.nothing'");

    assertThatThrownBy(() -> Wire.readReply(body))
        .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
        .hasMessage("context shop has no component 'billing.nothing'");
  }

  @Test
  void readReply_unknownFailureCode_isSystemFailure() {
    assertThatThrownBy(() -> Wire.readReply(bytes("{\"failure\":{\"code\":\"FROM_THE_FUTURE\",\"message\":\"m\"}}")))
        .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM));
  }

  @Test
  void readReply_badRefusalCode_isMalformed() {
    assertThatThrownBy(() -> Wire.readReply(bytes("{\"refusal\":{\"code\":\"not a code\"}}")))
        .isInstanceOf(Wire.Malformed.class);
  }

  @Test
  void readReply_noOutcome_isMalformed() {
    assertThatThrownBy(() -> Wire.readReply(bytes("{\"other\":1}")))
        .isInstanceOf(Wire.Malformed.class)
        .hasMessageContaining("output, refusal or failure");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
