package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Outbox entry ids sort by time: twelve hexadecimal digits of milliseconds, then twenty random
 * ones.
 */
class IdentitiesTest {
  @Test
  void ordered_startsWithTheLow48BitsOfItsMilliseconds_thenTwentyRandomDigits() {
    String id = Identities.ordered(0x0123_4567_89abL, new Random(7));
    assertThat(id).hasSize(32).matches("[0-9a-f]{32}").startsWith("0123456789ab");
    assertThat(Identities.ordered(0xffff_0000_0000_0001L, new Random(7)))
        .startsWith("000000000001");
    assertThat(Identities.ordered(1_000, new Random(1)))
        .isLessThan(Identities.ordered(1_001, new Random(2)));
  }
}
