package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.test.core.Harness;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Crash mode on real contexts: each scenario below is a test class of its own, run through the
 * JUnit Platform as a build runs it, and what it reports — passed, or failed with which message —
 * is asserted here, with the seed and the points each crashing run saw.
 */
class CrashModeTest {
  /**
   * What each run of a scenario saw, in order: the run that delivers each message once, then the
   * one that crashes.
   */
  static final List<String> RUNS = new CopyOnWriteArrayList<>();

  /**
   * A seed that picks a point of each kind in the scenario of kit.looks: the call made again, the
   * order's entry published again, and the event handled again at kit.looks — which then meets
   * kit.orders.created three times, and discards two.
   */
  static final long EVERY_KIND = 3987206283546037114L;

  /**
   * A seed that picks, in the scenario of kit.tally, the publish of the order's entry and nothing
   * the tally receives.
   */
  static final long PUBLISH_ONLY = 9160414602873908121L;

  /**
   * A seed that picks a point of each kind in the shop's top-up, among them the publish of the
   * top-up's entry.
   */
  static final long SHOP_EVERY_KIND = 422007565252447211L;

  private static final Pattern SEED = Pattern.compile("^Crash mode, seed (\\d+): ");

  @BeforeEach
  @AfterEach
  void forget() {
    RUNS.clear();
    System.clearProperty(Harness.CRASH_SEED);
  }

  @Test
  void aReceiverThatDiscardsARepeat_passesCrashingAtEveryKindOfPoint_theRepeatsMadeByTheEngine() {
    TestExecutionSummary summary = Kit.run(LooksCrashing.class);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS)
        .containsExactly(
            "once: no seed, kit.looks.count discarded 0, kit.orders.place discarded 0 []",
            "crash: seed "
                + EVERY_KIND
                + ", kit.looks.count discarded 2, kit.orders.place discarded 1 ["
                + "between commit and acknowledgement: kit.orders.created 95ea3aad08ab3d20705b60348f09dd09 on kit.orders.created..kit.looks, handled again, "
                + "between commit and answer: kit.orders.place under identity order-1, called again, "
                + "between publish and marking published: the outbox entry of kit.orders "
                + Kit.ORDER
                + " at VERSION 1, published again]");
  }

  @Test
  void
      theShopsTopUp_passesCrashingAtEveryKindOfPoint_itsPaidEventPublishedAgainAnsweredByTheCreditsOnce() {
    TestExecutionSummary summary = Kit.run(ShopCrashing.class);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS)
        .containsExactly(
            "once: credit answered by the inbox 0 time(s), record discarded 0 time(s)",
            "crash: credit answered by the inbox 2 time(s), record discarded 1 time(s) ["
                + "between commit and acknowledgement: billing.topups.paid 05bc4e8896b3c6f13f7ae1588a1ac0ba on billing.topups.paid..billing.wallets, handled again, "
                + "between commit and answer: billing.topups.record under identity provider-report-1, called again, "
                + "between publish and marking published: the outbox entry of billing.topups "
                + ShopScenarioTest.TOPUP
                + " at VERSION 1, published again]");
  }

  @Test
  void
      anOperationThatIsNotRepeatSafe_failsNamingItTheSeedAndThePoints_aCrashBeforeTheMarkAloneShowsIt() {
    TestExecutionSummary summary = Kit.run(TallyCrashingAtAFixedSeed.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            """
            Crash mode, seed %2$d: repeating the messages at the points the seed picked ends differently from delivering each once:
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has count = 2, and 1 when delivered once
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has VERSION = 2, and 1 when delivered once
            The seed picked 1 of 5 point(s):
            - between publish and marking published: the outbox entry of kit.orders %1$s at VERSION 1, published again
            Repeat this run with -Dtoa.crash.seed=%2$d, or crash(%2$d)""",
            Kit.ORDER, PUBLISH_ONLY)
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
            "once: count 1",
            "crash: count 2 [between publish and marking published: the outbox entry of kit.orders "
                + Kit.ORDER
                + " at VERSION 1, published again]");
  }

  @Test
  void aFailureUnderAFreshSeed_isTheSameFailureWhenTheSeedItPrintsIsFixedBySystemProperty() {
    List<String> seen = new ArrayList<>();
    Throwable failure = null;
    for (int run = 0;
        run < 16 && failure == null;
        run++) { // three runs in four pick a point the tally meets
      TestExecutionSummary summary = Kit.run(TallyCrashing.class);
      seen.add(RUNS.get(RUNS.size() - 1));
      if (summary.getTestsFailedCount() > 0) failure = summary.getFailures().get(0).getException();
    }
    assertThat(failure)
        .as("a failure in 16 runs under fresh seeds; the runs: %s", seen)
        .isNotNull();
    assertThat(failure.getMessage())
        .contains(
            "- kit.tally.bump, given kit.orders.created again: record kit.tally "
                + Kit.ORDER
                + " has count = ");
    Matcher seed = SEED.matcher(failure.getMessage());
    assertThat(seed.find()).as("the seed starts the message: %s", failure.getMessage()).isTrue();
    assertThat(failure.getMessage())
        .contains(
            "Repeat this run with -Dtoa.crash.seed="
                + seed.group(1)
                + ", or crash("
                + seed.group(1)
                + ")");
    String crashed = RUNS.get(RUNS.size() - 1);

    System.setProperty(Harness.CRASH_SEED, seed.group(1));
    RUNS.clear();
    TestExecutionSummary again = Kit.run(TallyCrashing.class);

    assertThat(again.getTestsFailedCount()).isEqualTo(1);
    assertThat(again.getFailures().get(0).getException()).hasMessage(failure.getMessage());
    assertThat(RUNS)
        .as("the same points, the same count")
        .containsExactly("once: count 1", crashed);
  }

  @Test
  void seeds_differFromRunToRun_unlessFixed() {
    Kit.run(LooksCrashingFresh.class);
    Kit.run(LooksCrashingFresh.class);
    System.setProperty(Harness.CRASH_SEED, "42");
    Kit.run(LooksCrashingFresh.class);
    Kit.run(LooksCrashingFresh.class);

    assertThat(RUNS).hasSize(8).filteredOn(r -> r.startsWith("crash:")).hasSize(4);
    List<String> crashing =
        RUNS.stream()
            .filter(r -> r.startsWith("crash:"))
            .map(r -> r.substring(0, r.indexOf(',')))
            .toList();
    assertThat(crashing.get(0)).isNotEqualTo(crashing.get(1));
    assertThat(crashing.subList(2, 4)).containsExactly("crash: seed 42", "crash: seed 42");
  }

  @Test
  void aSeedPropertyThatIsNotANumber_isRefusedNamingIt_beforeTheTestRuns() {
    System.setProperty(Harness.CRASH_SEED, "forty-two");

    TestExecutionSummary summary = Kit.run(LooksCrashingFresh.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "system property toa.crash.seed is the seed of crash mode, a whole number; got 'forty-two'");
    assertThat(RUNS).as("the test did not run").isEmpty();
  }

  private static String run(ToaContext toa) {
    return toa.crashSeed().isPresent() ? "crash: " : "once: ";
  }

  static class ShopCrashing extends ShopScenarioTest.TopUp {
    @Override
    ToaContext context() {
      return ToaContext.folder(ShopScenarioTest.SHOP).crash(SHOP_EVERY_KIND);
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
              + toa.crashSeed().stream().mapToObj(s -> "seed " + s).findFirst().orElse("no seed")
              + ", "
              + "kit.looks.count discarded "
              + Kit.counted(toa, "toa.discards", "kit.looks.count")
              + ", kit.orders.place discarded "
              + Kit.counted(toa, "toa.discards", "kit.orders.place")
              + " "
              + toa.crashPoints());
      assertThat(toa.record("kit.looks", Kit.ORDER))
          .has("count", 1)
          .has("items", List.of("book"))
          .hasVersion(1);
    }
  }

  static class LooksCrashing extends LooksScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).crash(EVERY_KIND);
    }
  }

  static class LooksCrashingFresh extends LooksScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).crash();
    }
  }

  /** An order counted by a receiver that adds one without once. */
  abstract static class TallyScenario extends OrderScenario {
    @Override
    void countedOnce() {
      RUNS.add(
          run(toa)
              + "count "
              + toa.record("kit.tally", Kit.ORDER).get("count")
              + (toa.crashPoints().isEmpty() ? "" : " " + toa.crashPoints()));
      assertThat(toa.record("kit.tally", Kit.ORDER)).has("count", 1);
    }
  }

  static class TallyCrashing extends TallyScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).crash();
    }
  }

  static class TallyCrashingAtAFixedSeed extends TallyScenario {
    @Override
    ToaContext context() {
      return ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).crash(PUBLISH_ONLY);
    }
  }
}
