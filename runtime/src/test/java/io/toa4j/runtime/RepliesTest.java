package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.spi.Json;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.MissingNode;

class RepliesTest {
  private static final String ID = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @Test
  void output_writtenAndRead_isTheSameReplyAsInProcess() {
    Map<String, Object> record =
        Map.of("id", ID, "balance", 5000L, "paid", Map.of("order-1", 10L), "tags", List.of("x"));

    Reply read = Replies.read(Replies.write(new Reply.Output(Optional.of(record))));

    assertThat(read).isEqualTo(new Reply.Output(Optional.of(record)));
  }

  @Test
  void output_withWholeNumbersBeyondALong_readsBackTheSameNumbers() {
    BigInteger big = new BigInteger("123456789012345678901234567890");
    Map<String, Object> record =
        Map.of("id", ID, "supply", big, "debts", List.of(big.negate(), 7L));

    Reply read = Replies.read(Replies.write(new Reply.Output(Optional.of(record))));

    assertThat(read).isEqualTo(new Reply.Output(Optional.of(record)));
    Result.Output tree =
        new Result.Output(Binding.tree(new Json("{\"supply\":123456789012345678901234567890}")));
    assertThat(Routing.reply(tree)).isEqualTo(new Reply.Output(Optional.of(Map.of("supply", big))));
  }

  @Test
  void emptyOutput_isWrittenAsNull_andReadsBackEmpty() {
    byte[] written = Replies.write(new Reply.Output(Optional.empty()));

    assertThat(text(written)).isEqualTo("{\"output\":null}");
    assertThat(Replies.read(written)).isEqualTo(new Reply.Output(Optional.empty()));
  }

  @Test
  void resultOutput_onTheBus_readsBackTheSameTree() {
    Result.Output output = new Result.Output(Binding.tree(new Json("{\"balance\":5000}")));

    Json written = Replies.answer(output);

    assertThat(written.text()).isEqualTo("{\"output\":{\"balance\":5000}}");
    assertThat(Replies.result(written)).isEqualTo(output);
  }

  @Test
  void resultEmptyOutput_onTheBus_readsBackMissing() {
    assertThat(Replies.result(Replies.answer(new Result.Output(MissingNode.getInstance()))))
        .isEqualTo(new Result.Output(MissingNode.getInstance()));
  }

  @Test
  void replayedOutput_onTheBus_readsBackReplayed() {
    Result.Output replayed = new Result.Output(Binding.tree(new Json("\"done\"")), true);

    Json written = Replies.answer(replayed);

    assertThat(written.text()).isEqualTo("{\"output\":\"done\",\"replayed\":true}");
    assertThat(Replies.result(written)).isEqualTo(replayed);
  }

  @Test
  void earlierHostsEmptyOutput_withoutOutputField_readsBackEmpty() {
    assertThat(Replies.result(new Json("{}")))
        .isEqualTo(new Result.Output(MissingNode.getInstance()));
    assertThat(Replies.result(new Json("{\"replayed\":true}")))
        .isEqualTo(new Result.Output(MissingNode.getInstance(), true));
  }

  @Test
  void refusalWithCause_readsBackCodeAndCause() {
    Reply refused = new Reply.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 10L)));

    byte[] written = Replies.write(refused);

    assertThat(text(written))
        .isEqualTo("{\"refusal\":{\"code\":\"INSUFFICIENT_FUNDS\",\"cause\":{\"balance\":10}}}");
    assertThat(Replies.read(written)).isEqualTo(refused);
    assertThat(
            Replies.result(
                Replies.answer(
                    new Result.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 10L))))))
        .isEqualTo(new Result.Refused(Refusal.of("INSUFFICIENT_FUNDS", Map.of("balance", 10L))));
  }

  @Test
  void refusalWithoutCause_readsBackWithoutCause_whetherCauseIsNullOrAbsent() {
    Reply refused = new Reply.Refused(Refusal.of("NOT_PACKED"));

    byte[] written = Replies.write(refused);

    assertThat(text(written)).isEqualTo("{\"refusal\":{\"code\":\"NOT_PACKED\",\"cause\":null}}");
    assertThat(Replies.read(written)).isEqualTo(refused);
    assertThat(Replies.read(bytes("{\"refusal\":{\"code\":\"NOT_PACKED\"}}"))).isEqualTo(refused);
  }

  @Test
  void failure_withDetails_travelsWithThem_inTheirOrder() {
    Failure late =
        new Failure(
            Failure.Code.ALREADY_ANSWERED,
            "answered before",
            Map.of("answered", "2026-12-03T10:00:00Z"));
    byte[] written = Replies.failure(late);

    assertThat(text(written))
        .isEqualTo(
            "{\"failure\":{\"code\":\"ALREADY_ANSWERED\",\"message\":\"answered before\",\"details\":{\"answered\":\"2026-12-03T10:00:00Z\"}}}");
    assertThatThrownBy(() -> Replies.read(written))
        .isInstanceOfSatisfying(
            Failure.class,
            f ->
                assertThat(f.details())
                    .containsExactly(Map.entry("answered", "2026-12-03T10:00:00Z")));
    assertThatThrownBy(() -> Replies.result(Replies.failed(late)))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.details()).isEqualTo(late.details()));
    assertThatThrownBy(
            () ->
                Replies.read(
                    "{\"failure\":{\"code\":\"SYSTEM\",\"details\":{\"n\":1}}}"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("detail n is text");
  }

  @Test
  void failure_readBack_isThrownWithItsCodeAndMessage() {
    byte[] written =
        Replies.failure(Failure.Code.ENDPOINT, "context shop has no component 'billing.nothing'");

    assertThat(text(written))
        .isEqualTo(
            "{\"failure\":{\"code\":\"ENDPOINT\",\"message\":\"context shop has no component 'billing.nothing'\"}}");
    assertThatThrownBy(() -> Replies.read(written))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
        .hasMessage("context shop has no component 'billing.nothing'");
    assertThatThrownBy(() -> Replies.result(Replies.failed(Failure.Code.CONCURRENCY, "stale")))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONCURRENCY))
        .hasMessage("stale");
  }

  @Test
  void failure_withUnknownCode_isReadAsSystemFailure() {
    assertThatThrownBy(
            () ->
                Replies.read(
                    bytes("{\"failure\":{\"code\":\"FROM_THE_FUTURE\",\"message\":\"m\"}}")))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM))
        .hasMessage("m");
  }

  @Test
  void malformed_notJson_saysSo() {
    assertThatThrownBy(() -> Replies.read(bytes("{ output: ")))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> Replies.result(new Json("[1]")))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("JSON object");
  }

  @Test
  void malformed_noOutcome_namesTheForms() {
    assertThatThrownBy(() -> Replies.read(bytes("{\"other\":1}")))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("output, refusal or failure");
  }

  @Test
  void malformed_badRefusalCode_orCodelessFailure_isMalformed() {
    assertThatThrownBy(() -> Replies.read(bytes("{\"refusal\":{\"code\":\"not a code\"}}")))
        .isInstanceOf(Replies.Malformed.class);
    assertThatThrownBy(() -> Replies.read(bytes("{\"failure\":{\"message\":\"m\"}}")))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("code");
    assertThatThrownBy(() -> Replies.read(bytes("{\"output\":1,\"replayed\":\"yes\"}")))
        .isInstanceOf(Replies.Malformed.class)
        .hasMessageContaining("replayed");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
