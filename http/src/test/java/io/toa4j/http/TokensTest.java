package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.time.TestClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Bearer tokens: HMAC-SHA256 over the payload, checked before it is read, expiring by the clock. */
class TokensTest {
  private static final String ID = "0123456789abcdef0123456789abcdef";
  private final TestClock clock = new TestClock();
  private final byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private final Tokens tokens = new Tokens(secret, clock);

  private String token() {
    return tokens.issue(ID, "alice", clock.instant().plus(Duration.ofMinutes(10)));
  }

  @Test
  void issued_isValid_withItsIdentityAndExpiry() {
    Tokens.Checked checked = tokens.check(token());

    assertThat(checked).isEqualTo(new Tokens.Checked.Valid(ID, "alice", Instant.ofEpochSecond(clock.instant().plus(Duration.ofMinutes(10)).getEpochSecond())));
  }

  @Test
  void expired_byTheClock_isInvalid_andAtTheLastSecondBeforeItIsValid() {
    String token = token();

    clock.advance(Duration.ofMinutes(10).minusSeconds(1));
    assertThat(tokens.check(token)).isInstanceOf(Tokens.Checked.Valid.class);
    clock.advance(Duration.ofSeconds(1));
    assertThat(tokens.check(token)).isEqualTo(new Tokens.Checked.Invalid("the bearer token expired at " + clock.instant() + "; get a new one"));
  }

  @Test
  void tamperedSignature_isInvalid() {
    String token = token();
    int last = token.length() - 2; // not the final character, whose low bits base64url may ignore
    String tampered = token.substring(0, last) + (token.charAt(last) == 'A' ? 'B' : 'A') + token.substring(last + 1);

    assertThat(tokens.check(tampered)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
  }

  @Test
  void tamperedPayload_aLongerExpiryOrAnotherIdentity_isInvalid() {
    String token = token();
    String signature = token.substring(token.indexOf('.') + 1);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String longer = b64.encodeToString(("{\"sub\":\"" + ID + "\",\"name\":\"alice\",\"exp\":99999999999}").getBytes(StandardCharsets.UTF_8));
    String other = b64.encodeToString(("{\"sub\":\"" + ID.replace('0', 'f') + "\",\"name\":\"root\",\"exp\":1900000000}").getBytes(StandardCharsets.UTF_8));

    assertThat(tokens.check(longer + "." + signature)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
    assertThat(tokens.check(other + "." + signature)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
  }

  @Test
  void signedWithAnotherSecret_isInvalid() {
    byte[] another = secret.clone();
    another[0] ^= 1;

    assertThat(new Tokens(another, clock).check(token())).isInstanceOf(Tokens.Checked.Invalid.class);
  }

  @Test
  void malformed_isInvalid_sayingHow() {
    String token = token();
    assertThat(tokens.check("")).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not payload.signature"));
    assertThat(tokens.check("abc")).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not payload.signature"));
    assertThat(tokens.check(token + ".x")).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not payload.signature"));
    assertThat(tokens.check("." + token)).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not payload.signature"));
    assertThat(tokens.check(token.substring(0, token.indexOf('.') + 1))).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not payload.signature"));
    assertThat(tokens.check("a*b.c$d")).isEqualTo(new Tokens.Checked.Invalid("the bearer token is not base64url"));
    assertThat(tokens.check("x".repeat(5000))).isEqualTo(new Tokens.Checked.Invalid("the bearer token is longer than any this gateway issues"));
  }

  @Test
  void aSignedPayloadThatIsNotAToken_isInvalid() {
    // What a leaked secret could sign is still checked for shape; the secret here is the real one.
    String garbage = signed("[1,2,3]");
    String noExp = signed("{\"sub\":\"" + ID + "\",\"name\":\"alice\"}");
    String badId = signed("{\"sub\":\"ALICE\",\"name\":\"alice\",\"exp\":1900000000}");

    assertThat(tokens.check(garbage)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's payload lacks sub, name or exp"));
    assertThat(tokens.check(noExp)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's payload lacks sub, name or exp"));
    assertThat(tokens.check(badId)).isEqualTo(new Tokens.Checked.Invalid("the bearer token's payload lacks sub, name or exp"));
    assertThat(tokens.check(signed("not json"))).isEqualTo(new Tokens.Checked.Invalid("the bearer token's payload is not JSON"));
  }

  @Test
  void aSecretShorterThan256Bits_isRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Tokens(new byte[31], clock)).isInstanceOf(IllegalArgumentException.class);
  }

  private String signed(String payload) {
    try {
      String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
      return encoded + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(encoded.getBytes(StandardCharsets.US_ASCII)));
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
