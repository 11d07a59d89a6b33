package io.toa4j.bus.embedded;

import io.toa4j.spi.Delivery;
import io.toa4j.spi.Verdict;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The hand-off's protocol ({@link HandOff}) explored by Lincheck's model checker: its two sides —
 * the handler that gives a verdict, the publish that waits for it and then stores the message or
 * gives up on it — in every order on any threads. Whatever the order, a verdict is acted on exactly
 * once: by the publish when it came in time, by whichever side comes second when the message was
 * stored claimed, by nobody when the publish dropped the message (it is published again). The
 * publish's wait is over at once here, so that the model checker explores the orders rather than
 * time.
 */
public class HandOffLincheckTest {
  private final HandOff handOff =
      new HandOff(new Delivery(Fixtures.message("m-1", "test.sources.created"), "q", 1));
  private final Claim claim = new Claim(1, handOff.delivery());
  private final AtomicBoolean answered = new AtomicBoolean(); // the handler side ran
  private final AtomicBoolean published = new AtomicBoolean(); // the publish side ran
  private final AtomicBoolean inTime =
      new AtomicBoolean(); // the publish acted on a verdict given in time
  private final AtomicBoolean dropped = new AtomicBoolean();
  private final AtomicInteger recorded =
      new AtomicInteger(); // verdicts recorded on the claim, by either side

  @Operation
  public void handlerAnswers() {
    if (!answered.compareAndSet(false, true)) return; // one handler per hand-off
    handOff.answered(Verdict.DONE).ifPresent(c -> recorded.incrementAndGet());
  }

  @Operation
  public void publishStores() {
    publish(false);
  }

  @Operation
  public void publishDrops() {
    publish(true);
  }

  private void publish(boolean drop) {
    if (!published.compareAndSet(false, true)) return; // one publish per hand-off
    Optional<Verdict> verdict = handOff.await(System.nanoTime());
    if (verdict.isPresent()) {
      inTime.set(true);
    } else if (drop) {
      handOff.dropped();
      dropped.set(true);
    } else {
      handOff.stored(claim).ifPresent(v -> recorded.incrementAndGet());
    }
  }

  @Validate
  public void aVerdict_isActedOnOnce_orDroppedWithItsMessage() {
    int actedOn = recorded.get() + (inTime.get() ? 1 : 0);
    if (actedOn > 1) throw new IllegalStateException("a verdict acted on " + actedOn + " times");
    boolean both = answered.get() && published.get();
    if (both && !dropped.get() && actedOn != 1)
      throw new IllegalStateException("a verdict given and stored was never recorded");
    if (dropped.get() && actedOn != 0)
      throw new IllegalStateException("a verdict on a dropped message was recorded");
    if (!answered.get() && actedOn != 0)
      throw new IllegalStateException("a verdict recorded that was never given");
  }

  @Test
  void protocol_inEveryOrder_actsOnAVerdictOnce() {
    new ModelCheckingOptions()
        .iterations(20)
        .invocationsPerIteration(1_000)
        .threads(2)
        .actorsPerThread(2)
        .check(HandOffLincheckTest.class);
  }
}
