package io.toa4j.test.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@link Check} on the shop, whose operations reached by a repeat are all safe to repeat, and on a
 * context (test resources, {@code checked/}) with one reached only through a task that appends
 * without once, one behind a route that discards a repeat, and one whose input has a pattern no
 * drawn value fits.
 */
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

  @Test
  void anOperationReachedOnlyByATask_thatAppendsWithoutOnce_isTheOneFinding()
      throws URISyntaxException {
    Check.Report report = Check.folder(checked()).seed(5).tries(5).run();

    assertThat(report.checked())
        .containsExactlyInAnyOrder("check.sinks.absorb", "check.sinks.keep");
    assertThat(report.untried())
        .containsExactly(
            "check.sinks.tag: no input of 50 drawn fits its schema, in each of 5 tries");
    assertThat(report.findings())
        .singleElement()
        .satisfies(
            finding -> {
              assertThat(finding.operation()).isEqualTo("check.sinks.absorb");
              assertThat(finding.property()).isEqualTo("notes");
              assertThat(finding.difference())
                  .matches(
                      "record check.sinks [0-9a-f]{32} has notes = \\[.*], and \\[.*] when delivered once");
              assertThat(finding.line())
                  .startsWith("check.sinks.absorb: record check.sinks ")
                  .contains("; request {\"query\":{\"id\":");
            });
  }

  @Test
  void theSameSeed_findsTheSame() throws URISyntaxException {
    Check.Report first = Check.folder(checked()).seed(9).tries(2).run();
    Check.Report second = Check.folder(checked()).seed(9).tries(2).run();

    assertThat(second).isEqualTo(first);
  }

  @Test
  void aFolderWithoutAContext_isRefusedByName() {
    assertThatThrownBy(() -> Check.folder(Path.of("no-such-folder")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-folder holds no context.toa.yaml");
  }

  private static Path checked() throws URISyntaxException {
    return Path.of(CheckTest.class.getResource("/checked/context.toa.yaml").toURI()).getParent();
  }
}
