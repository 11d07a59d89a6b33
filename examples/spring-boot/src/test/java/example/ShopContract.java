package example;

import org.junit.jupiter.api.Test;

/** The guide's flow through the example, on whichever engine the implementing test runs it. */
interface ShopContract {
  /** The running example. */
  Shop shop();

  @Test
  default void sameTopupTwice_answersTheSame_andCreditsOnce() {
    shop().sameTopupTwice_answersTheSame_andCreditsOnce();
  }

  @Test
  default void health_isUp() {
    shop().health_isUp();
  }

  @Test
  default void metrics_showTheRuntimesMeters() {
    shop().metrics_showTheRuntimesMeters();
  }
}
