package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link Check} on the shop, whose operations reached by a repeat are all safe to repeat. */
class CheckTest {
  private static final Path SHOP = Path.of("../examples/shop");

  @Test
  void theShop_findsNothing_andTriesTheOperationBehindItsReceiverAndRoute() {
    Check.Report report = Check.folder(SHOP).seed(42).tries(3).run();

    assertThat(report.findings()).isEmpty();
    assertThat(report.checked()).containsExactly("billing.wallets.credit");
    assertThat(report.untried()).isEmpty();
    assertThat(report.seed()).isEqualTo(42);
  }
}
