package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Twice mode on real contexts: each scenario below is a test class of its own, run through the
 * JUnit Platform as a build runs it, and what it reports — passed, or failed with which message —
 * is asserted here, with what each of its two runs saw.
 */
class TwiceModeTest {
  /**
   * What each run of a scenario saw, in order: the run that delivers each message once, then the
   * one that delivers it twice.
   */
  static final List<String> RUNS = new CopyOnWriteArrayList<>();

  @BeforeEach
  void forget() {
    RUNS.clear();
  }

  @Test
  void
      aReceiverThatAddsOneWithoutOnce_passesOnceAndFailsTwiceNamingTheOperationTheRecordThePropertyAndBothValues() {
    assertThat(Kit.run(TallyOnce.class).getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS).containsExactly("once: count 1");
    RUNS.clear();

    TestExecutionSummary twice = Kit.run(TallyTwice.class);

    assertThat(twice.getTestsFailedCount()).isEqualTo(1);
    Throwable failure = twice.getFailures().get(0).getException();
    assertThat(failure)
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            """
            Twice mode: delivering every message twice ends differently from delivering it once:
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has count = 2, and 1 when delivered once
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has VERSION = 2, and 1 when delivered once""",
            Kit.ORDER);
    assertThat(failure.getSuppressed())
        .as("the scenario's own assertion, which failed in the second run, is kept")
        .singleElement()
        .satisfies(
            e ->
                assertThat(e)
                    .hasMessage(
                        "Expected record kit.tally %s to have count = 1, but it has count = 2",
                        Kit.ORDER));
    assertThat(RUNS).containsExactly("once: count 1", "twice: count 2");
  }

  @Test
  void anEventTheReceiverDeclares_isCompared_andTheRepeatThatAnnouncedItAgainIsNamed() {
    TestExecutionSummary twice = Kit.run(DeclaringTallyTwice.class);

    assertThat(twice.getTestsFailedCount()).isEqualTo(1);
    assertThat(twice.getFailures().get(0).getException())
        .hasMessage(
            """
            Twice mode: delivering every message twice ends differently from delivering it once:
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has count = 2, and 1 when delivered once
            - kit.tally.bump, given kit.orders.created again: record kit.tally %1$s has VERSION = 2, and 1 when delivered once
            - event kit.tally.counted was announced 2 time(s), and 1 when delivered once""",
            Kit.ORDER);
  }

  @Test
  void
      aCallThatSetsWhatIsSetAlready_writesAgainWhenCalledAgain_andTwiceModeNamesTheCallAndVersion() {
    TestExecutionSummary twice = Kit.run(RenameTwice.class);

    assertThat(twice.getTestsFailedCount()).isEqualTo(1);
    assertThat(twice.getFailures().get(0).getException())
        .hasMessage(
            """
            Twice mode: delivering every message twice ends differently from delivering it once:
            - kit.orders.rename, called again under its identity: record kit.orders %s has VERSION = 3, and 2 when delivered once""",
            Kit.ORDER)
        .hasNoSuppressedExceptions();
  }

  @Test
  void aRecordCreatedWithAMintedIdWithoutOnce_isASecondRecordWhenDeliveredTwice() {
    TestExecutionSummary twice = Kit.run(NotesWithoutOnceTwice.class);

    assertThat(twice.getTestsFailedCount()).isEqualTo(1);
    assertThat(twice.getFailures().get(0).getException())
        .hasMessageStartingWith(
            "Twice mode: delivering every message twice ends differently from delivering it once:\n- kit.notes.write, given"
                + " kit.orders.created again: record kit.notes ")
        .hasMessageContaining(" exists, and does not when delivered once: {item=book, id=")
        .as("kit.notes.created, which nothing declares nor takes, is not compared")
        .hasMessageNotContaining("event kit.notes.created");
  }

  @Test
  void aReceiverThatThrowsOnARepeat_isParkedWhenDeliveredTwice_andTwiceModeSaysSo() {
    TestExecutionSummary twice = Kit.run(StrictTwice.class);

    assertThat(twice.getTestsFailedCount()).isEqualTo(1);
    assertThat(twice.getFailures().get(0).getException())
        .hasMessageStartingWith(
            "Twice mode: delivering every message twice ends differently from delivering it once:\n"
                + "- message kit.orders.created on kit.orders.created..kit.strict (SYSTEM: ")
        .hasMessageContaining("order " + Kit.ORDER + " is taken already")
        .hasMessageEndingWith(") was parked, and was not when delivered once")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .satisfies(
                        s ->
                            assertThat(s)
                                .hasMessageStartingWith(
                                    "Expected no parked message, but there are: kit.orders.created")));
  }

  @Test
  void aReceiverThatLooksBeforeItWritesAndDiscardsARepeat_passesTwice() {
    TestExecutionSummary summary = Kit.run(LooksTwice.class);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS).containsExactly("once: 0 discard(s)", "twice: 1 discard(s)");
  }

  @Test
  void recordsWhoseIdsTheRuntimeMints_haveTheSameIdsInBothRuns() {
    TestExecutionSummary summary = Kit.run(NotesTwice.class);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS).hasSize(2);
    String note = RUNS.get(0).substring("once: note ".length(), "once: note ".length() + 32);
    assertThat(RUNS)
        .containsExactly(
            "once: note " + note + ", 0 inbox answer(s)",
            "twice: note " + note + ", 1 inbox answer(s)");
  }

  @Test
  void theShopsTopUp_passesTwice_itsCreditAnsweredByOnceAndItsRecordDiscarded() {
    TestExecutionSummary summary = Kit.run(ShopTwice.class);

    assertThat(summary.getFailures()).isEmpty();
    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(RUNS)
        .containsExactly(
            "once: credit answered by the inbox 0 time(s), record discarded 0 time(s)",
            "twice: credit answered by the inbox 1 time(s), record discarded 1 time(s)");
  }

  @Test
  void aRepeatedTestAndAParameterizedTest_runEachInvocationTwice_andEachFails() {
    TestExecutionSummary repeated = Kit.run(TallyRepeatedTwice.class);
    assertThat(repeated.getTestsFailedCount()).as("both repetitions").isEqualTo(2);
    assertThat(repeated.getFailures())
        .allSatisfy(
            f ->
                assertThat(f.getException())
                    .hasMessageStartingWith("Twice mode: delivering every message twice")
                    .hasMessageContaining("has count = 2, and 1 when delivered once"));

    TestExecutionSummary parameterized = Kit.run(TallyParameterizedTwice.class);
    assertThat(parameterized.getTestsFailedCount()).as("both arguments").isEqualTo(2);
    assertThat(parameterized.getFailures())
        .allSatisfy(
            f ->
                assertThat(f.getException())
                    .hasMessageContaining("has count = 2, and 1 when delivered once"));
  }

  @Test
  void aTestFactory_isRefusedInTwiceMode_sayingWhatToWriteInstead() {
    TestExecutionSummary factory = Kit.run(TallyFactoryTwice.class);

    assertThat(factory.getTotalFailureCount()).isEqualTo(1);
    assertThat(factory.getFailures().get(0).getException())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("orders is a @TestFactory")
        .hasMessageContaining("@Test, a @RepeatedTest or a @ParameterizedTest");
  }

  private static String run(ToaContext toa) {
    return toa.deliversTwice() ? "twice: " : "once: ";
  }

  /** An order placed, then its tally asserted: one count for one order. */
  abstract static class TallyScenario {
    abstract ToaContext toa();

    @Test
    void anOrderPlaced_isCountedOnce() {
      toa().call("kit.orders.place", Kit.place("book"), "order-1");
      toa().settle();

      RUNS.add(run(toa()) + "count " + toa().record("kit.tally", Kit.ORDER).get("count"));
      assertThat(toa().record("kit.tally", Kit.ORDER)).has("count", 1);
    }
  }

  static class TallyOnce extends TallyScenario {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY));

    @Override
    ToaContext toa() {
      return toa;
    }
  }

  static class TallyTwice extends TallyScenario {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).twice();

    @Override
    ToaContext toa() {
      return toa;
    }
  }

  /** The tally, declaring an event that each of its writes announces. */
  static class DeclaringTallyTwice extends TallyScenario {
    @RegisterExtension
    final ToaContext toa =
        ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY + "events:\n  counted: {}\n"))
            .twice();

    @Override
    ToaContext toa() {
      return toa;
    }
  }

  static class TallyRepeatedTwice {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).twice();

    @RepeatedTest(2)
    void anOrderPlaced_isCountedOnce() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();
      assertThat(toa.record("kit.tally", Kit.ORDER)).has("count", 1);
    }
  }

  static class TallyParameterizedTwice {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).twice();

    @ParameterizedTest
    @ValueSource(strings = {"book", "atlas"})
    void anOrderPlaced_isCountedOnce(String item) {
      toa.call("kit.orders.place", Kit.place(item), "order-1");
      toa.settle();
      assertThat(toa.record("kit.tally", Kit.ORDER)).has("count", 1);
    }
  }

  static class TallyFactoryTwice {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.tally", Kit.TALLY)).twice();

    @TestFactory
    List<DynamicTest> orders() {
      return List.of(
          DynamicTest.dynamicTest(
              "one order", () -> toa.call("kit.orders.place", Kit.place("book"), "order-1")));
    }
  }

  static class RenameTwice {
    @RegisterExtension final ToaContext toa = ToaContext.built(Kit::context).twice();

    @Test
    void anOrderRenamed_isAtItsNewItem() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.call("kit.orders.rename", Request.of(Kit.ORDER, Map.of("item", "atlas")), "rename-1");
      toa.settle();

      assertThat(toa.record("kit.orders", Kit.ORDER)).has("item", "atlas");
    }
  }

  static class NotesWithoutOnceTwice {
    @RegisterExtension
    final ToaContext toa =
        ToaContext.built(
                Kit.withOrders("kit.notes", Kit.NOTES.replace("once: true", "concurrency: none")))
            .twice();

    @Test
    void anOrderPlaced_isNoted() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();
    }
  }

  static class StrictTwice {
    @RegisterExtension
    final ToaContext toa =
        ToaContext.built(Kit.withOrders("kit.strict", Kit.STRICT))
            .with(b -> b.retryDelays())
            .twice();

    @Test
    void anOrderPlaced_isTaken() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();

      assertThat(toa.parked()).isEmpty();
      assertThat(toa.record("kit.strict", Kit.ORDER)).has("taken", true);
    }
  }

  static class LooksTwice {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.looks", Kit.LOOKS)).twice();

    @Test
    void anOrderPlaced_isCountedOnce() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();

      RUNS.add(run(toa) + Kit.counted(toa, "toa.discards", "kit.looks.count") + " discard(s)");
      assertThat(toa.record("kit.looks", Kit.ORDER))
          .has("count", 1)
          .has("items", List.of("book"))
          .hasVersion(1);
    }
  }

  static class NotesTwice {
    @RegisterExtension
    final ToaContext toa = ToaContext.built(Kit.withOrders("kit.notes", Kit.NOTES)).twice();

    @Test
    void anOrderPlaced_isNotedOnce() {
      toa.call("kit.orders.place", Kit.place("book"), "order-1");
      toa.settle();

      assertThat(toa.records("kit.notes"))
          .singleElement()
          .satisfies(note -> assertThat(note).has("item", "book"));
      RUNS.add(
          run(toa)
              + "note "
              + toa.records("kit.notes").get(0).id()
              + ", "
              + Kit.counted(toa, "toa.inbox.answers", "kit.notes.write")
              + " inbox answer(s)");
    }
  }

  static class ShopTwice extends ShopScenarioTest.TopUp {
    @Override
    ToaContext context() {
      return ToaContext.folder(ShopScenarioTest.SHOP).twice();
    }

    @Override
    List<String> runs() {
      return RUNS;
    }
  }
}
