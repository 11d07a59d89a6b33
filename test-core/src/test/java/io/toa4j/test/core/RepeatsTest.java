package io.toa4j.test.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How crash mode chooses its points and words what it explored; its runs on real contexts are the
 * test kit's {@code CrashModeTest}.
 */
class RepeatsTest {
  private static final List<String> FORTY =
      IntStream.range(0, 40).mapToObj(i -> "point %02d".formatted(i)).toList();

  @Test
  void pointsWithinTheBudget_areAllExploredInTheOrderOfTheirNames() {
    assertThat(Repeats.chosen(List.of("c", "a", "b"), 3, 1)).containsExactly("a", "b", "c");
    assertThat(Repeats.chosen(List.of("c", "a", "b"), 32, 2)).containsExactly("a", "b", "c");
  }

  @Test
  void pointsPastTheBudget_areAsManyAsIt_chosenByTheSeedAlone() {
    List<String> chosen = Repeats.chosen(FORTY, 16, 42);

    assertThat(chosen).hasSize(16).isSorted().doesNotHaveDuplicates().isSubsetOf(FORTY);
    List<String> reversed = new ArrayList<>(FORTY);
    Collections.reverse(reversed);
    assertThat(Repeats.chosen(reversed, 16, 42))
        .as("whatever order they were met in")
        .isEqualTo(chosen);
    assertThat(IntStream.range(0, 8).mapToObj(seed -> Repeats.chosen(FORTY, 16, seed)).distinct())
        .as("other seeds choose otherwise")
        .hasSizeGreaterThan(1);
  }

  @Test
  void aRunOfCrashMode_repeatsItsPointOnceAndNoOther_andEveryRunNotesThePointsItMet() {
    Repeats run =
        Repeats.only(
            "between commit and answer: kit.orders.place under identity o-1, called again");

    assertThat(run.beforeAnswer("kit.orders.rename", "o-1")).isFalse();
    assertThat(run.beforeAnswer("kit.orders.place", "o-1")).isTrue();
    assertThat(run.beforeAnswer("kit.orders.place", "o-1")).as("once only").isFalse();
    assertThat(run.beforeMarkedPublished("kit.orders o-1 at VERSION 1")).isFalse();
    assertThat(run.picked())
        .containsExactly(
            "between commit and answer: kit.orders.place under identity o-1, called again");
    assertThat(run.met())
        .containsExactly(
            "between commit and answer: kit.orders.place under identity o-1, called again",
            "between commit and answer: kit.orders.rename under identity o-1, called again",
            "between publish and marking published: the outbox entry of kit.orders o-1 at VERSION 1,"
                + " published again");

    Repeats plain = Repeats.none();
    assertThat(plain.beforeAcknowledgement("q", "kit.orders.created", "e-1")).isFalse();
    assertThat(plain.met())
        .containsExactly(
            "between commit and acknowledgement: kit.orders.created e-1 on q, handled again");
    assertThat(Repeats.every().beforeAcknowledgement("q", "kit.orders.created", "e-1")).isTrue();
    assertThat(Repeats.every().beforeMarkedPublished("kit.orders o-1 at VERSION 1"))
        .as("twice mode does not publish again")
        .isFalse();
  }

  @Test
  void coverage_saysWhatWasExplored_howItWasChosen_andWhatWasNotMet() {
    assertThat(
            new Harness.Coverage(
                List.of("a", "b"), List.of("a", "b"), List.of(), OptionalLong.empty()))
        .hasToString("crash mode explored 2 of 2 point(s)");
    assertThat(
            new Harness.Coverage(
                FORTY, FORTY.subList(0, 16), List.of("point 03"), OptionalLong.of(42)))
        .hasToString(
            "crash mode explored 15 of 40 point(s), chosen by seed 42 within a budget of 16 (repeat"
                + " the choice with -Dtoa.crash.seed=42 or crash(42); explore them all with"
                + " budget(40)); not met in its run, so not crashed at:\n- point 03");
  }
}
