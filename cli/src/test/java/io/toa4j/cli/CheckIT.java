package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toa check} as a separate process: on the shop, whose operations reached by a repeat are
 * safe to repeat, and on a context planted with one that is not (test resources, {@code planted/}:
 * {@code plant.tally.bump}, behind a receiver, adds one to {@code count} without {@code once}).
 */
class CheckIT {
  @TempDir Path temp;
  private ToaShell toa;

  @BeforeEach
  void shell() throws IOException {
    toa = new ToaShell(Files.createDirectories(temp.resolve("logs")));
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void theShop_hasNoFinding_exits0_andLeavesItsStateAlone() {
    Path shop = ToaShell.copyOfShop(temp);

    ToaShell.Result check = toa.run(shop, "check", "--seed", "42");

    assertThat(check.exitCode()).as("%s", check).isZero();
    assertThat(check.out())
        .as("no finding line, only the summary")
        .isEqualTo(
            "toa check: no finding in 1 operation(s) reached by a repeat (billing.wallets.credit), 10 tries each, seed 42\n");
    assertThat(shop.resolve(".toa")).as("the context's own state is never touched").doesNotExist();
  }

  @Test
  void aReceiverThatAddsOneWithoutOnce_isAFinding_namingTheOperationAndCount_exits1()
      throws URISyntaxException {
    ToaShell.Result check = toa.run(planted(), "check", "--seed", "7");

    assertThat(check.exitCode()).as("%s", check).isEqualTo(1);
    String[] lines = check.out().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .as("one finding: the operation, the property, both values and the request")
        .startsWith("plant.tally.bump: record plant.tally ")
        .containsPattern(
            "has count = (\\d+), and (\\d+) when delivered once; request \\{\"query\":\\{\"id\":\"[0-9a-f]{32}\"},\"input\":\\{\"item\":");
    assertThat(lines[1])
        .isEqualTo(
            "toa check: 1 finding(s) in 1 operation(s) reached by a repeat (plant.tally.bump), 10 tries each, seed 7;"
                + " repeat it with --seed 7");
  }

  @Test
  void theSameSeed_repeatsTheSameRun() throws URISyntaxException {
    ToaShell.Result first = toa.run(planted(), "check", "--seed", "11", "--tries", "3");
    ToaShell.Result second = toa.run(planted(), "check", "--seed", "11", "--tries", "3");

    assertThat(first.exitCode()).as("%s", first).isEqualTo(1);
    assertThat(second.out()).isEqualTo(first.out());
    assertThat(second.exitCode()).isEqualTo(1);
  }

  @Test
  void noSeed_drawsOne_andPrintsIt() throws URISyntaxException {
    ToaShell.Result check = toa.run(planted(), "check", "--tries", "1");

    assertThat(check.out()).containsPattern("seed -?\\d+; repeat it with --seed -?\\d+\n$");
  }

  @Test
  void triesBelowOne_isBadUsage() throws URISyntaxException {
    ToaShell.Result check = toa.run(planted(), "check", "--tries", "0");

    assertThat(check.exitCode()).isEqualTo(64);
    assertThat(check.err()).contains("toa check: --tries 0: give at least 1");
  }

  /** The planted context as the build copied it from the test resources. */
  private static Path planted() throws URISyntaxException {
    return Path.of(CheckIT.class.getResource("/planted/context.toa.yaml").toURI()).getParent();
  }
}
