package io.toa4j.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading an Idempotency-Key field, and the call identity a key gives. */
class IdempotencyKeyParsingTest {
  static final String UUID = "3f1c8a2e-6d0b-4c1f-9a57-0e2b7c9d4a11";

  private static IdempotencyKey key(String field) {
    return IdempotencyKey.of(List.of(field)).orElseThrow();
  }

  private static void refused(String field, String message) {
    assertThatThrownBy(() -> IdempotencyKey.of(List.of(field)))
        .as(field)
        .isInstanceOfSatisfying(
            IdempotencyRefusal.class,
            r -> {
              assertThat(r.status()).isEqualTo(400);
              assertThat(r.code()).isEqualTo("IDEMPOTENCY_KEY");
            })
        .hasMessageContaining(message);
  }

  @Test
  void of_noField_isNoKey() {
    assertThat(IdempotencyKey.of(List.of())).isEqualTo(Optional.empty());
  }

  @Test
  void of_quotedString_isTheKeyUnescaped() {
    assertThat(key("\"" + UUID + "\"").value()).isEqualTo(UUID);
    assertThat(key("\"a b\\\"c\\\\d\"").value()).isEqualTo("a b\"c\\d");
    assertThat(key("  \"padded\"  ").value()).isEqualTo("padded");
  }

  @Test
  void of_bareKey_isTheSameKeyAsQuoted() {
    assertThat(key(UUID)).isEqualTo(key("\"" + UUID + "\""));
    assertThat(key("order-42/retry:1").value()).isEqualTo("order-42/retry:1");
  }

  @Test
  void of_255Characters_isAKey_256AreRefused() {
    assertThat(key("k".repeat(255)).value()).hasSize(255);
    assertThat(key("\"" + "k".repeat(255) + "\"").value()).hasSize(255);
    refused("k".repeat(256), "256 characters long; a key is at most 255");
    refused("\"" + "k".repeat(256) + "\"", "256 characters long");
  }

  @Test
  void of_malformed_isRefusedSayingWhatIsWrong() {
    refused("", "empty");
    refused("\"\"", "empty");
    refused("\"abc", "does not close");
    refused("\"abc\"def", "'def' after its closing quote");
    refused("\"abc\";p=1", "after its closing quote");
    refused("\"a\\nb\"", "escapes 'n'");
    refused("\"tab\there\"", "U+0009");
    refused("\"cl\u00e9\"", "U+00E9");
    refused("two words", "a space");
    refused("quo\"te", "a quote");
    refused("back\\slash", "a backslash");
  }

  @Test
  void of_twoFields_isRefused() {
    assertThatThrownBy(() -> IdempotencyKey.of(List.of("a", "b")))
        .isInstanceOf(IdempotencyRefusal.class)
        .hasMessageContaining("send one idempotency-key header");
  }

  @Test
  void identity_isDeterministic_32Hex() {
    String identity = key(UUID).identity("anonymous", "PUT", "/billing/wallets/:id/credits/");

    assertThat(identity)
        .matches("[0-9a-f]{32}")
        .isEqualTo(key(UUID).identity("anonymous", "PUT", "/billing/wallets/:id/credits/"));
  }

  @Test
  void identity_differsByCallerMethodRouteAndKey() {
    String route = "/billing/wallets/:id/credits/";
    String base = key(UUID).identity("alice", "PUT", route);

    assertThat(key(UUID).identity("bob", "PUT", route)).isNotEqualTo(base);
    assertThat(key(UUID).identity("alice", "POST", route)).isNotEqualTo(base);
    assertThat(key(UUID).identity("alice", "PUT", "/billing/wallets/:id/debits/"))
        .isNotEqualTo(base);
    assertThat(key("another").identity("alice", "PUT", route)).isNotEqualTo(base);
  }

  @Test
  void identity_partsCannotBeShiftedIntoOneAnother() {
    assertThat(key("b").identity("a", "PUT", "/r/"))
        .isNotEqualTo(key("b").identity("", "aPUT", "/r/"));
    assertThat(key("xy").identity("a", "PUT", "/r/"))
        .isNotEqualTo(key("y").identity("a", "PUT", "/r/x"));
  }
}
