package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.tck.time.TestClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Bearer tokens: JWTs signed HS256, refused unless the header, the signature, the claims and the
 * expiry are all as issued; the signatures of the hostile ones here are computed independently of
 * the class under test, with the JDK's HMAC.
 */
class TokensTest {
  static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final String ID = "0123456789abcdef0123456789abcdef";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private final TestClock clock = new TestClock();
  private final byte[] secret =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private final Tokens tokens = new Tokens(secret, clock);

  private String token() {
    return tokens.issue(ID, "alice", clock.instant().plus(Duration.ofMinutes(10)));
  }

  private Instant now() {
    return Instant.ofEpochSecond(clock.instant().getEpochSecond());
  }

  private Instant inTenMinutes() {
    return Instant.ofEpochSecond(clock.instant().plus(Duration.ofMinutes(10)).getEpochSecond());
  }

  @Test
  void issued_isValid_withItsIdentityAndExpiry() {
    assertThat(tokens.check(token()))
        .isEqualTo(new Tokens.Checked.Valid(ID, "alice", now(), inTenMinutes()));
  }

  @Test
  void issued_isACompactJwt_withHeaderHs256_andTheClaimsSubNameIatExp() throws Exception {
    String[] parts = token().split("\\.", -1);

    assertThat(parts).hasSize(3);
    assertThat(JSON.readTree(Base64.getUrlDecoder().decode(parts[0])))
        .isEqualTo(JSON.readTree("{\"alg\":\"HS256\",\"typ\":\"JWT\"}"));
    JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
    assertThat(claims.path("sub").asString()).isEqualTo(ID);
    assertThat(claims.path("name").asString()).isEqualTo("alice");
    assertThat(claims.path("iat").asLong()).isEqualTo(clock.instant().getEpochSecond());
    assertThat(claims.path("exp").asLong()).isEqualTo(inTenMinutes().getEpochSecond());
    assertThat(parts[2])
        .isEqualTo(B64.encodeToString(hmac("HmacSHA256", secret, parts[0] + "." + parts[1])));
  }

  @Test
  void expired_byTheClock_isInvalid_andAtTheLastSecondBeforeItIsValid() {
    String token = token();

    clock.advance(Duration.ofMinutes(10).minusSeconds(1));
    assertThat(tokens.check(token)).isInstanceOf(Tokens.Checked.Valid.class);
    clock.advance(Duration.ofSeconds(1));
    assertThat(tokens.check(token))
        .isEqualTo(
            new Tokens.Checked.Invalid(
                "the bearer token expired at " + clock.instant() + "; get a new one"));
  }

  @Test
  void everyCharacter_replacedByEveryOtherBase64urlCharacter_isInvalid() {
    String token = token();
    List<String> accepted = new ArrayList<>();
    int variants = 0;
    for (int i = 0; i < token.length(); i++) {
      if (token.charAt(i) == '.') continue;
      for (char c : ALPHABET.toCharArray()) {
        if (c == token.charAt(i)) continue;
        String changed = token.substring(0, i) + c + token.substring(i + 1);
        variants++;
        if (tokens.check(changed) instanceof Tokens.Checked.Valid) accepted.add(changed);
      }
    }

    assertThat(variants).isEqualTo((token.length() - 2) * 63);
    assertThat(accepted).isEmpty();
  }

  @Test
  void signature_whoseLastCharacterDiffersOnlyInUnusedBits_isInvalid() {
    String token = token();
    char last = token.charAt(token.length() - 1);
    // 32 bytes are 43 characters: the last one carries 4 bits and 2 unused ones, which decoding
    // ignores
    char twin = ALPHABET.charAt(ALPHABET.indexOf(last) ^ 1);
    String changed = token.substring(0, token.length() - 1) + twin;

    assertThat(Base64.getUrlDecoder().decode(changed.substring(changed.lastIndexOf('.') + 1)))
        .as("the same signature bytes")
        .isEqualTo(Base64.getUrlDecoder().decode(token.substring(token.lastIndexOf('.') + 1)));
    assertThat(tokens.check(changed))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token is not in canonical base64url"));
  }

  @Test
  void tamperedClaims_aLongerExpiryOrAnotherIdentity_isInvalid() {
    String token = token();
    String header = token.substring(0, token.indexOf('.'));
    String signature = token.substring(token.lastIndexOf('.') + 1);
    String longer =
        encode("{\"sub\":\"" + ID + "\",\"name\":\"alice\",\"iat\":1,\"exp\":99999999999}");
    String other =
        encode(
            "{\"sub\":\""
                + ID.replace('0', 'f')
                + "\",\"name\":\"root\",\"iat\":1,\"exp\":1900000000}");

    assertThat(tokens.check(header + "." + longer + "." + signature))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
    assertThat(tokens.check(header + "." + other + "." + signature))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
  }

  @Test
  void algorithmNone_orAnotherAlgorithmWithTheSameSecret_orAnExtraHeaderParameter_isInvalid() {
    String claims = "{\"sub\":\"" + ID + "\",\"name\":\"alice\",\"iat\":1,\"exp\":99999999999}";
    String headerRefused =
        "the bearer token's header is not {\"alg\":\"HS256\",\"typ\":\"JWT\"}, the only one this gateway accepts";

    assertThat(
            tokens.check(encode("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + encode(claims) + "."))
        .isEqualTo(
            new Tokens.Checked.Invalid(
                "the bearer token is not a JWT: header.payload.signature in base64url"));
    assertThat(tokens.check(signed("{\"alg\":\"none\",\"typ\":\"JWT\"}", claims, "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    assertThat(tokens.check(signed("{\"alg\":\"HS384\",\"typ\":\"JWT\"}", claims, "HmacSHA384")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    assertThat(tokens.check(signed("{\"alg\":\"HS512\",\"typ\":\"JWT\"}", claims, "HmacSHA512")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    assertThat(
            tokens.check(
                signed(
                    "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"other\"}", claims, "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    assertThat(tokens.check(signed("{\"alg\":\"HS256\"}", claims, "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    assertThat(
            tokens.check(
                signed(
                    "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"crit\":[\"b64\"],\"b64\":false}",
                    claims,
                    "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(headerRefused));
    // the control: the same claims under the expected header and the secret are accepted
    assertThat(tokens.check(signed("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", claims, "HmacSHA256")))
        .isInstanceOf(Tokens.Checked.Valid.class);
  }

  @Test
  void signedWithAnotherSecret_isInvalid() {
    byte[] another = secret.clone();
    another[0] ^= 1;

    assertThat(new Tokens(another, clock).check(token()))
        .isEqualTo(new Tokens.Checked.Invalid("the bearer token's signature does not match"));
  }

  @Test
  void malformed_isInvalid_sayingHow() {
    String token = token();
    String notJwt = "the bearer token is not a JWT: header.payload.signature in base64url";
    assertThat(tokens.check("")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check("abc")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check("a.b")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check(token + ".x")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check("." + token)).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check(token + "=")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check(token.replace('.', ' '))).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check("a*b.c$d.e")).isEqualTo(new Tokens.Checked.Invalid(notJwt));
    assertThat(tokens.check(encode("not json") + "." + encode("{}") + ".AAAA"))
        .isEqualTo(
            new Tokens.Checked.Invalid("the bearer token is not a JWT: its header is not JSON"));
    assertThat(tokens.check("x".repeat(5000)))
        .isEqualTo(
            new Tokens.Checked.Invalid("the bearer token is longer than any this gateway issues"));
  }

  @Test
  void signedClaimsThatAreNotATokens_areInvalid() {
    // What a leaked secret could sign is still checked for shape; the secret here is the real one.
    String header = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    String refused = "the bearer token's claims are not sub, name, iat and exp";

    assertThat(tokens.check(signed(header, "[1,2,3]", "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
    assertThat(
            tokens.check(
                signed(header, "{\"sub\":\"" + ID + "\",\"name\":\"alice\"}", "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
    assertThat(
            tokens.check(
                signed(
                    header,
                    "{\"sub\":\"ALICE\",\"name\":\"alice\",\"exp\":1900000000}",
                    "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
    assertThat(
            tokens.check(
                signed(
                    header,
                    "{\"sub\":\"" + ID + "\",\"name\":7,\"exp\":1900000000}",
                    "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
    assertThat(
            tokens.check(
                signed(
                    header,
                    "{\"sub\":\""
                        + ID
                        + "\",\"name\":\"alice\",\"exp\":1900000000,\"role\":\"root\"}",
                    "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
    assertThat(tokens.check(signed(header, "not json", "HmacSHA256")))
        .isEqualTo(new Tokens.Checked.Invalid(refused));
  }

  @Test
  void aSecretShorterThan256Bits_isRefused() {
    assertThatThrownBy(() -> new Tokens(new byte[31], clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("256 bits");
  }

  private static String encode(String text) {
    return B64.encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A token of that header and those claims, its HMAC made with the secret by the JDK. */
  private String signed(String header, String claims, String mac) {
    String input = encode(header) + "." + encode(claims);
    return input + "." + B64.encodeToString(hmac(mac, secret, input));
  }

  static byte[] hmac(String algorithm, byte[] key, String input) {
    try {
      Mac mac = Mac.getInstance(algorithm);
      mac.init(new SecretKeySpec(key, algorithm));
      return mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
