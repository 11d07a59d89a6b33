package io.toa4j.sqlite;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The group commit's hand-off explored by Lincheck's model checker, under many interleavings of a
 * few threads writing, closing, and writing what makes its batch's commit throw an {@code Error}:
 * a write that returns had its batch end (committed, or handed to {@code unfinished} when its commit
 * threw), two batches are never committed at once, a write refused after close was never
 * committed, and the writer ends free with nothing queued.
 */
public class BatchesLincheckTest {
  private final AtomicInteger ids = new AtomicInteger();
  private final Set<Integer> committed = ConcurrentHashMap.newKeySet();
  private final Set<Integer> unfinished = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean committing = new AtomicBoolean();
  private final AtomicReference<String> violation = new AtomicReference<>();
  private final Batches<Integer> batches =
      new Batches<>(2, () -> new IllegalStateException("closed"), (batch, t) -> unfinished.addAll(batch));

  /** Commits the batch, or throws when it holds a failing item (a negative one), as a commit may. */
  private void commit(List<Integer> batch) {
    if (!committing.compareAndSet(false, true)) violation.compareAndSet(null, "two batches were committed at once");
    try {
      for (int item : batch) if (item < 0) throw new OutOfMemoryError("a commit failing");
      committed.addAll(batch);
    } finally {
      committing.set(false);
    }
  }

  @Operation
  public void write() {
    write(ids.incrementAndGet());
  }

  @Operation
  public void writeFailing() {
    write(-ids.incrementAndGet());
  }

  private void write(int item) {
    try {
      batches.join(item, this::commit);
    } catch (OutOfMemoryError holder) {
      // the Error goes to the thread that committed the failing batch, which is this one's too
      if (!unfinished.contains(item)) violation.compareAndSet(null, item + " threw, its batch not unfinished");
      return;
    } catch (IllegalStateException closed) {
      if (committed.contains(item)) violation.compareAndSet(null, item + " refused after close, yet committed");
      return;
    }
    if (!committed.contains(item) && !unfinished.contains(item)) violation.compareAndSet(null, item + " returned before its batch ended");
    if (item < 0 && committed.contains(item)) violation.compareAndSet(null, item + " committed though its batch failed");
  }

  @Operation
  public void close() {
    batches.close();
  }

  @Validate
  public void everyWriteEndedRight_oneBatchAtATime_andTheWriterEndsFree() {
    if (violation.get() != null) throw new IllegalStateException(violation.get());
    if (!batches.idle()) throw new IllegalStateException("the writer is held or something is queued");
  }

  @Test
  void handOff_underEveryInterleaving_endsEveryWriteRightAndTheWriterFree() {
    new ModelCheckingOptions()
        .iterations(10)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(2)
        .check(BatchesLincheckTest.class);
  }
}
