package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.test.core.Harness;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Crash mode on real contexts: each scenario below is a test class of its own, run through the
 * JUnit Platform as a build runs it, and what it reports — passed, or failed with which message,
 * and what it explored — is asserted here, with the point each crashing run crashed at.
 */
class CrashModeTest {
  /**
   * What each run of a scenario saw, in order: the run that delivers each message once, then one
   * run per point, crashing there.
   */
  static final List<String> RUNS = new CopyOnWriteArrayList<>();

  /** The event of the order's creation, under the id the kit's seed mints for it in every run. */
  static final String CREATED = "95ea3aad08ab3d20705b60348f09dd09";

  /** The shop's paid event of the top-up, under the id the kit's seed mints for it in every run. */
  static final String SHOP_PAID = "05bc4e8896b3c6f13f7ae1588a1ac0ba";

  /** The four points of an order placed and counted by a receiver, in the order explored. */
  static List<String> orderPoints(String receiver) {
    return List.of(
        "between commit and acknowledgement: kit.orders.created "
            + CREATED
            + " on kit.orders.created.."
            + receiver
            + ", handled again",
        "between commit and answer: kit.orders.place under identity order-1, called again",
        "between publish and marking published: the outbox entry of "
            + receiver
            + " "
            + Kit.ORDER
            + " at VERSION 1, published again",
        "between publish and marking published: the outbox entry of kit.orders "
            + Kit.ORDER
            + " at VERSION 1, published again");
  }

  @BeforeEach
  @AfterEach
  void forget() {
    RUNS.clear();
    System.clearProperty(Harness.CRASH_SEED);
    System.clearProperty(Harness.CRASH_BUDGET);
  }

  @Test
  void aReceiverThatDiscardsARepeat_passesCrashingAtEachPointOfItsScenario_oneRunAPoint() {
    List<String> reported = new ArrayList<>();
    TestExecutionSummary summary = Kit.run(LooksCrashing.class, reported);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    List<String> points = orderPoints("kit.looks");
    assertThat(RUNS)
        .containsExactly(
            "once: kit.looks.count discarded 0, kit.orders.place discarded 0",
            "crash at "
                + points.get(0)
                + ": kit.looks.count discarded 1, kit.orders.place discarded 0",
            "crash at "
                + points.get(1)
                + ": kit.looks.count discarded 0, kit.orders.place discarded 1",
            "crash at "
                + points.get(2)
                + ": kit.looks.count discarded 0, kit.orders.place discarded 0",
            "crash at "
                + points.get(3)
                + ": kit.looks.count discarded 1, kit.orders.place discarded 0");
    assertThat(reported).containsExactly("toa.crash: crash mode explored 4 of 4 point(s)");
  }

  @Test
  void
      theShopsTopUp_passesCrashingAtEachPoint_itsPaidEventPublishedAgainAnsweredByTheCreditsOnce() {
    List<String> reported = new ArrayList<>();
    TestExecutionSummary summary = Kit.run(ShopCrashing.class, reported);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS)
        .containsExactly(
            "once: credit answered by the inbox 0 time(s), record discarded 0 time(s)",
            "crash: credit answered by the inbox 1 time(s), record discarded 0 time(s) ["
                + "between commit and acknowledgement: billing.topups.paid "
                + SHOP_PAID
                + " on billing.topups.paid..billing.wallets, handled again]",
            "crash: credit answered by the inbox 0 time(s), record discarded 1 time(s) ["
                + "between commit and answer: billing.topups.record under identity provider-report-1, called again]",
            "crash: credit answered by the inbox 1 time(s), record discarded 0 time(s) ["
                + "between publish and marking published: the outbox entry of billing.topups "
                + ShopScenarioTest.TOPUP
                + " at VERSION 1, published again]",
            "crash: credit answered by the inbox 0 time(s), record discarded 0 time(s) ["
                + "between publish and marking published: the outbox entry of billing.wallets "
                + ShopScenarioTest.CUSTOMER
                + " at VERSION 1, published again]");
    assertThat(reported).containsExactly("toa.crash: crash mode explored 4 of 4 point(s)");
  }

  @Test
  void anOperationThatIsNotRepeatSafe_failsAtTheFirstPointThatRepeatsIt_namingThePoint() {
    TestExecutionSummary summary = Kit.run(TallyCrashing.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            """
            Crash mode, point 1 of 4: crashing %2$s — ends differently from delivering each message once:
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has count = 2, and 1 when delivered once
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has VERSION = 2, and 1 when delivered once""",
            Kit.ORDER, orderPoints("kit.tally").get(0))
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .satisfies(
                        s ->
                            assertThat(s)
                                .hasMessage(
                                    "Expected record kit.tally %s to have count = 1, but it has count = 2",
                                    Kit.ORDER)));
    assertThat(RUNS)
        .containsExactly(
            "once: count 1", "crash at " + orderPoints("kit.tally").get(0) + ": count 2");
  }

  @RepeatedTest(3)
  void aPlantedDoubleCount_isCaughtEveryRun_whateverTheSeed() {
    TestExecutionSummary summary = Kit.run(TallyCrashing.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .hasMessageStartingWith(
            "Crash mode, point 1 of 4: crashing " + orderPoints("kit.tally").get(0));
  }

  @Test
  void aPublishCrashAlone_isFoundWhenTheOtherPointsAreNotExplored() {
    // the tally counts again only when the order's created comes back; past the point of its
    // acknowledgement, a budget of one explores what a seed chooses: run until it chooses the
    // publish of the order's entry, which the tally meets again after the rest has settled
    String publish = orderPoints("kit.tally").get(3);
    Throwable failure = null;
    for (int run = 0; run < 40 && failure == null; run++) {
      TestExecutionSummary summary = Kit.run(TallyCrashingOnBudget.class);
      if (summary.getTestsFailedCount() > 0
          && summary.getFailures().get(0).getException().getMessage().contains(publish))
        failure = summary.getFailures().get(0).getException();
    }
    assertThat(failure).as("a seed in 40 that chooses the publish: %s", RUNS).isNotNull();
    assertThat(failure.getMessage())
        .startsWith(
            "Crash mode, point 1 of 1 explored of 4: crashing " + publish + " — ends differently")
        .contains(
            "- kit.tally.bump, given kit.orders.created again: record kit.tally "
                + Kit.ORDER
                + " has count = 2, and 1 when delivered once")
        .containsPattern(
            "\\nThe points explored were chosen by seed (\\d+) within a budget of 1 \\(repeat the choice with -Dtoa.crash.seed=\\1 or crash\\(\\1\\); explore them all with budget\\(4\\)\\)$");
  }

  @Test
  void aSeedFixedBySystemProperty_choosesTheSamePoints_freshSeedsOthers() {
    List<String> fresh = new ArrayList<>();
    for (int run = 0; run < 10 && fresh.stream().distinct().count() < 2; run++) {
      List<String> reported = new ArrayList<>();
      RUNS.clear();
      Kit.run(LooksCrashingOnBudget.class, reported);
      fresh.add(RUNS.get(1));
      assertThat(reported)
          .singleElement()
          .asString()
          .startsWith("toa.crash: crash mode explored 1 of 4 point(s), chosen by seed ");
    }
    assertThat(fresh.stream().distinct())
        .as("fresh seeds choose other points, within ten runs: %s", fresh)
        .hasSizeGreaterThanOrEqualTo(2);

    System.setProperty(Harness.CRASH_SEED, "42");
    List<String> fixed = new ArrayList<>();
    for (int run = 0; run < 3; run++) {
      List<String> reported = new ArrayList<>();
      RUNS.clear();
      Kit.run(LooksCrashingOnBudget.class, reported);
      fixed.add(RUNS.get(1));
      assertThat(reported)
          .containsExactly(
              "toa.crash: crash mode explored 1 of 4 point(s), chosen by seed 42 within a budget of 1"
                  + " (repeat the choice with -Dtoa.crash.seed=42 or crash(42); explore them all with budget(4))");
    }
    assertThat(fixed).containsOnly(fixed.get(0));
  }

  @Test
  void aBudgetByProperty_boundsTheRuns_andOneThatIsNotAPositiveNumberIsRefusedNamingIt() {
    System.setProperty(Harness.CRASH_BUDGET, "2");
    List<String> reported = new ArrayList<>();
    Kit.run(LooksCrashing.class, reported);
    assertThat(RUNS).hasSize(3);
    assertThat(reported)
        .singleElement()
        .asString()
        .startsWith("toa.crash: crash mode explored 2 of 4 point(s), chosen by seed ");

    RUNS.clear();
    System.setProperty(Harness.CRASH_BUDGET, "0");
    TestExecutionSummary summary = Kit.run(LooksCrashing.class);
    assertThat(summary.getFailures().get(0).getException())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "system property toa.crash.budget is how many points of a scenario crash mode explores, a whole number above 0; got '0'");
    assertThat(RUNS).as("the test did not run").isEmpty();
  }

  @Test
  void aSeedPropertyThatIsNotANumber_isRefusedNamingIt_beforeTheTestRuns() {
    System.setProperty(Harness.CRASH_SEED, "forty-two");

    TestExecutionSummary summary = Kit.run(LooksCrashing.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "system property toa.crash.seed is the seed of crash mode, a whole number; got 'forty-two'");
    assertThat(RUNS).as("the test did not run").isEmpty();
  }

  @Test
  void aBudgetBelowOne_isRefusedInTheTestsCode() {
    assertThatThrownBy(
            () -> ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).crash().budget(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "crash mode's budget is how many points of a scenario it explores, at least 1; got 0");
  }

  /** How a run of a scenario starts its line: {@code once: }, or {@code crash at <point>: }. */
  private static String run(ToaContext toa) {
    return toa.crashPoint().map(p -> "crash at " + p + ": ").orElse("once: ");
  }

  static class ShopCrashing extends ShopScenarioTest.TopUp {
    @Override
    ToaContext context() {
      return ToaContext.folder(ShopScenarioTest.SHOP).crash();
    }

    @Override
    List<String> runs() {
      return RUNS;
    }
  }

  /**
   * An order placed, then counted by a receiver: what each run saw is noted in {@link #RUNS}, then
   * asserted.
   */
  abstract static class OrderScenario {
    @RegisterExtension final ToaContext toa = context();

    /** The context of the orders and the receiver, in crash mode. */
    abstract ToaContext context();

    /** Notes what the run left in {@link #RUNS}, and asserts the order was counted once. */
    abstract void countedOnce();

    @Test
    void anOrderPlaced_isCountedOnce() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();

      countedOnce();
    }
  }

  /** An order counted by a receiver that looks before it writes. */
  abstract static class LooksScenario extends OrderScenario {
    @Override
    void countedOnce() {
      RUNS.add(
          run(toa)
              + "kit.looks.count discarded "
              + Kit.counted(toa, "toa.discards", "kit.looks.count")
              + ", kit.orders.place discarded "
              + Kit.counted(toa, "toa.discards", "kit.orders.place"));
      assertThat(toa.record("kit.looks", Kit.ORDER))
          .has("count", 1)
          .has("items", List.of("book"))
          .hasVersion(1);
    }
  }

  static class LooksCrashing extends LooksScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).crash();
    }
  }

  static class LooksCrashingOnBudget extends LooksScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).crash().budget(1);
    }
  }

  /** An order counted by a receiver that adds one without once. */
  abstract static class TallyScenario extends OrderScenario {
    @Override
    void countedOnce() {
      RUNS.add(run(toa) + "count " + toa.record("kit.tally", Kit.ORDER).get("count"));
      assertThat(toa.record("kit.tally", Kit.ORDER)).has("count", 1);
    }
  }

  static class TallyCrashing extends TallyScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).crash();
    }
  }

  static class TallyCrashingOnBudget extends TallyScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).crash().budget(1);
    }
  }
}
