package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.runtime.StartupException;
import io.toa4j.spi.OwnerOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the token secret comes from, on real files: the variable, the named file, or the one made
 * under .toa/.
 */
class TokenSecretTest {
  @TempDir Path dir;

  private TokenSecret secret(Map<String, String> environment) {
    return new TokenSecret(dir.resolve(".toa"), environment, new SecureRandom());
  }

  @Test
  void default_firstLoad_makes256RandomBits_inAFile0600_inAFolder0700_andReadsTheSameAfterwards()
      throws Exception {
    TokenSecret.Loaded made = secret(Map.of()).load();

    Path file = dir.resolve(".toa/secrets/token.key");
    assertThat(made.where()).isEqualTo(file.toString());
    assertThat(made.key()).hasSize(32);
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(OwnerOnly.FILE);
    assertThat(Files.getPosixFilePermissions(file.getParent())).isEqualTo(OwnerOnly.FOLDER);
    assertThat(Files.getPosixFilePermissions(dir.resolve(".toa"))).isEqualTo(OwnerOnly.FOLDER);
    assertThat(Base64.getDecoder().decode(Files.readString(file).strip())).isEqualTo(made.key());
    assertThat(secret(Map.of()).load().key()).isEqualTo(made.key());
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file); // nothing staged is left behind
    }
  }

  @Test
  void default_madeByManyAtOnce_endsAsOneSecret_thatEveryOneOfThemUses() throws Exception {
    int racers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<byte[]>> loaded = new ArrayList<>();
    try {
      for (int i = 0; i < racers; i++) {
        TokenSecret each = secret(Map.of());
        Callable<byte[]> load =
            () -> {
              go.await();
              return each.load().key();
            };
        loaded.add(pool.submit(load));
      }
      go.countDown();
      byte[] onDisk = null;
      for (Future<byte[]> key : loaded) {
        byte[] k = key.get(30, TimeUnit.SECONDS);
        if (onDisk == null)
          onDisk =
              Base64.getDecoder()
                  .decode(Files.readString(dir.resolve(".toa/secrets/token.key")).strip());
        assertThat(k).isEqualTo(onDisk);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void variable_set_winsOverTheFiles_andNothingIsWritten() {
    byte[] key = new byte[48];
    new SecureRandom().nextBytes(key);

    TokenSecret.Loaded loaded =
        secret(
                Map.of(
                    TokenSecret.VARIABLE,
                    Base64.getEncoder().encodeToString(key),
                    TokenSecret.FILE_VARIABLE,
                    "/nowhere"))
            .load();

    assertThat(loaded.key()).isEqualTo(key);
    assertThat(loaded.where()).isEqualTo("the variable TOA_TOKEN_SECRET");
    assertThat(dir.resolve(".toa")).doesNotExist();
  }

  @Test
  void fileVariable_namingAnOperatorsFile_usesItsSecret_andMakesNoOther() throws Exception {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Path file =
        Files.createFile(
            dir.resolve("ops.key"), PosixFilePermissions.asFileAttribute(OwnerOnly.FILE));
    Files.writeString(file, "  " + Base64.getEncoder().encodeToString(key) + "\n\n");

    TokenSecret.Loaded loaded = secret(Map.of(TokenSecret.FILE_VARIABLE, file.toString())).load();

    assertThat(loaded.key()).isEqualTo(key);
    assertThat(loaded.where()).isEqualTo(file.toString());
    assertThat(dir.resolve(".toa")).doesNotExist();
  }

  @Test
  void fileVariable_namingAMissingFile_isRefused_sayingHowToMakeIt() {
    Path missing = dir.resolve("missing.key");

    assertThatThrownBy(() -> secret(Map.of(TokenSecret.FILE_VARIABLE, missing.toString())).load())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("TOA_TOKEN_SECRET_FILE")
        .hasMessageContaining("does not exist")
        .hasMessageContaining("openssl rand -base64 32");
  }

  @Test
  void aShortOrNonBase64Secret_isRefused_namingWhere_neverTheValue() throws Exception {
    String shortKey =
        Base64.getEncoder().encodeToString("sixteen bytes!!!".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> secret(Map.of(TokenSecret.VARIABLE, shortKey)).load())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "the variable TOA_TOKEN_SECRET holds a token secret of 128 bits; it needs at least 256")
        .hasMessageNotContaining(shortKey);
    assertThatThrownBy(() -> secret(Map.of(TokenSecret.VARIABLE, "not base64 at all!")).load())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "the variable TOA_TOKEN_SECRET does not hold a token secret in base64")
        .hasMessageNotContaining("not base64 at all!");
    Path file = Files.writeString(dir.resolve("short.key"), shortKey);
    assertThatThrownBy(() -> secret(Map.of(TokenSecret.FILE_VARIABLE, file.toString())).load())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "the file "
                + file
                + " (named by TOA_TOKEN_SECRET_FILE) holds a token secret of 128 bits");
  }

  @Test
  void default_existingFileWiderThanTheOwners_isStillUsed_andLeftAsItIs() throws Exception {
    Path folder = OwnerOnly.folder(dir.resolve(".toa/secrets"), w -> {});
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Path file =
        Files.createFile(
            folder.resolve("token.key"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    Files.writeString(file, Base64.getEncoder().encodeToString(key));

    assertThat(secret(Map.of()).load().key()).isEqualTo(key);
    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
  }
}
