package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** The KDF: PBKDF2-HMAC-SHA256 hashes, salted, with their parameters. */
class PasswordsTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  // The format and the comparison do not depend on the count; one test runs the real one.
  private final Passwords fast = new Passwords(RANDOM, 1_000);

  @Test
  void hash_byDefault_isPbkdf2Sha256With600000IterationsAndASalt_andVerifies() {
    Passwords passwords = new Passwords(RANDOM);
    String hash = passwords.hash("correct horse".toCharArray());

    assertThat(hash).matches("pbkdf2-sha256\\$600000\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}");
    assertThat(passwords.verify("correct horse".toCharArray(), hash)).isTrue();
  }

  @Test
  void verify_samePassword_isTrue_anotherIsFalse() {
    String hash = fast.hash("s3cret-ü".toCharArray());

    assertThat(fast.verify("s3cret-ü".toCharArray(), hash)).isTrue();
    assertThat(fast.verify("s3cret-u".toCharArray(), hash)).isFalse();
    assertThat(fast.verify("s3cret-ü ".toCharArray(), hash)).isFalse();
    assertThat(fast.verify("S3cret-ü".toCharArray(), hash)).isFalse();
  }

  @Test
  void hash_samePasswordTwice_hasDifferentSaltsAndKeys() {
    String first = fast.hash("same".toCharArray());
    String second = fast.hash("same".toCharArray());

    assertThat(first.split("\\$")[2]).isNotEqualTo(second.split("\\$")[2]);
    assertThat(first.split("\\$")[3]).isNotEqualTo(second.split("\\$")[3]);
    assertThat(fast.verify("same".toCharArray(), first)).isTrue();
    assertThat(fast.verify("same".toCharArray(), second)).isTrue();
  }

  @Test
  void verify_readsTheIterationCountStoredWithTheHash() {
    String hash = new Passwords(RANDOM, 2_000).hash("pw".toCharArray());

    assertThat(fast.verify("pw".toCharArray(), hash))
        .as("a verifier set to 1,000 verifies a 2,000 hash")
        .isTrue();
  }

  @Test
  void verify_aStoredHashNotInTheFormat_failsSayingSo() {
    assertThatThrownBy(() -> fast.verify("pw".toCharArray(), "md5$abc"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("pbkdf2-sha256$<iterations>$<salt>$<key>");
  }

  @Test
  void everyVerification_runsOneDerivation_theDecoyToo() {
    String hash = fast.hash("pw".toCharArray());
    fast.decoy("warm".toCharArray()); // the first one also makes the decoy's hash
    long before = fast.derivations();

    fast.verify("pw".toCharArray(), hash);
    fast.decoy("pw".toCharArray());

    assertThat(fast.derivations() - before).isEqualTo(2);
  }

  @Test
  void fewerThan1000Iterations_areRefused() {
    assertThatThrownBy(() -> new Passwords(RANDOM, 999))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
