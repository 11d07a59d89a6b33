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
 * few threads writing, closing, and writing what makes its batch's commit throw an {@code Error}: a
 * write that returns was committed, a write that throws the commit's failure was not, two batches
 * are never committed at once, a write refused after close was never committed, and the writer ends
 * free with nothing queued.
 */
public class BatchesLincheckTest {
  private final AtomicInteger ids = new AtomicInteger();
  private final Set<Integer> committed = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean committing = new AtomicBoolean();
  private final AtomicReference<String> violation = new AtomicReference<>();
  private final Batches<Integer> batches =
      new Batches<>(2, () -> new IllegalStateException("closed"));

  /**
   * Commits the batch, or throws when it holds a failing item (a negative one), as a commit may.
   */
  private void commit(List<Integer> batch) {
    if (!committing.compareAndSet(false, true))
      violation.compareAndSet(null, "two batches were committed at once");
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
    } catch (OutOfMemoryError failed) {
      // the batch holding it failed: one of its items was a failing one, and none was committed
      if (committed.contains(item))
        violation.compareAndSet(null, item + " threw its batch's failure, yet committed");
      return;
    } catch (IllegalStateException closed) {
      if (committed.contains(item))
        violation.compareAndSet(null, item + " refused after close, yet committed");
      return;
    } catch (Exception e) {
      violation.compareAndSet(null, item + " threw " + e);
      return;
    }
    if (!committed.contains(item))
      violation.compareAndSet(null, item + " returned before its batch committed");
    if (item < 0) violation.compareAndSet(null, item + " returned though its batch failed");
  }

  @Operation
  public void close() {
    batches.close();
  }

  @Validate
  public void everyWriteEndedRight_oneBatchAtATime_andTheWriterEndsFree() {
    if (violation.get() != null) throw new IllegalStateException(violation.get());
    if (!batches.idle())
      throw new IllegalStateException("the writer is held or something is queued");
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
