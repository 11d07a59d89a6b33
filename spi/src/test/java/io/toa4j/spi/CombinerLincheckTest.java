package io.toa4j.spi;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The combiner's protocol explored by Lincheck's model checker, which runs scenarios of a few
 * threads under many interleavings (switching threads at each shared access): whatever the
 * interleaving, and when a drain throws an {@code Error}, a drain never runs on two threads at
 * once, every item added is drained, and the combiner ends idle. Both kinds are explored: the drain
 * on the requesting thread (the RabbitMQ bus's acks) and the drain handed to an executor (the
 * publisher's drains), whose executor here runs it on the requesting thread so that the hand-over's
 * states are explored with the rest.
 */
public class CombinerLincheckTest {
  private final Owner inline = new Owner(Combiner::inline);
  private final Owner onExecutor = new Owner(drain -> Combiner.on(Runnable::run, drain));

  @Operation
  public void addInline() {
    inline.add(false);
  }

  @Operation
  public void addInlineFailing() {
    inline.add(true);
  }

  @Operation
  public void addOnExecutor() {
    onExecutor.add(false);
  }

  @Operation
  public void addOnExecutorFailing() {
    onExecutor.add(true);
  }

  @Validate
  public void everythingDrained_onceAtATime_andIdle() {
    inline.check("inline");
    onExecutor.check("on an executor");
  }

  @Test
  void protocol_underEveryInterleaving_drainsEverythingOnceAtATime() {
    new ModelCheckingOptions()
        .iterations(20)
        .invocationsPerIteration(1_000)
        .threads(3)
        .actorsPerThread(3)
        .check(CombinerLincheckTest.class);
  }

  /** A combiner's owner: a queue of items and a drain that takes them, failing on a marked one. */
  private static final class Owner {
    private final Queue<Boolean> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger added = new AtomicInteger();
    private final AtomicInteger drained = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean overlapped = new AtomicBoolean();
    private final Combiner combiner;

    Owner(Function<Runnable, Combiner> combiner) {
      this.combiner = combiner.apply(this::drain);
    }

    void add(boolean failing) {
      added.incrementAndGet();
      waiting.add(failing);
      try {
        combiner.request();
      } catch (OutOfMemoryError expected) {
        // thrown to whichever thread ran the failing drain: this one or another
      }
    }

    /** Takes everything waiting, then fails if a marked item was among it, as the combiner asks. */
    private void drain() {
      if (!draining.compareAndSet(false, true)) overlapped.set(true);
      try {
        boolean failing = false;
        for (Boolean item; (item = waiting.poll()) != null; ) {
          drained.incrementAndGet();
          failing |= item;
        }
        if (failing) throw new OutOfMemoryError("a drain failing after it took its items");
      } finally {
        draining.set(false);
      }
    }

    void check(String kind) {
      if (overlapped.get()) throw new IllegalStateException(kind + ": two drains ran at once");
      if (!waiting.isEmpty() || drained.get() != added.get()) {
        throw new IllegalStateException(
            kind
                + ": added "
                + added
                + ", drained "
                + drained
                + ", still waiting "
                + waiting.size());
      }
      if (combiner.busy())
        throw new IllegalStateException(kind + ": the combiner did not end idle");
    }
  }
}
