package io.toa4j.sqlite;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The hand-off of a group commit: items queue up, and whichever waiting thread finds the writer
 * free takes everything queued (up to the batch size) and commits it for all; an item's thread
 * returns once a batch holding it has ended, committed by itself or by another thread.
 *
 * <p>An item is QUEUED (waiting), then TAKEN (in the batch its holder commits), then DONE (that
 * batch ended, whichever way); or, from QUEUED, REFUSED (the batches closed before it was taken:
 * it leaves the queue and its thread throws the closed failure). The writer is FREE or HELD: only a
 * thread whose own item is still QUEUED takes it, and that thread gives it back on every path once
 * its batch ended, {@code Error} included, marking the batch's items DONE in the same step;
 * CLOSED, once {@link #close()} found it FREE, it is never held again. A batch whose commit threw
 * is handed to {@code unfinished} with what it threw before its items are DONE, so that none of
 * them passes for committed; the holding thread gets the throw only when its own item was in the
 * batch. Every
 * state is guarded by the queue's monitor; checked with Lincheck.
 *
 * @param <P> an item: what a write leaves for the batch that commits it
 */
final class Batches<P> {
  private final int batchSize;
  private final Supplier<? extends RuntimeException> closedFailure;
  private final BiConsumer<List<P>, Throwable> unfinished;
  private final Queue<Node<P>> queue = new ArrayDeque<>();
  private boolean writing; // guarded by queue
  private boolean closed; // guarded by queue
  /** The thread holding the writer, while one does. */
  private volatile Thread holder;

  /**
   * @param batchSize the most items one batch takes
   * @param closedFailure what an item queued or joining after {@link #close()} throws
   * @param unfinished told of a batch whose commit threw, before its items are done
   */
  Batches(int batchSize, Supplier<? extends RuntimeException> closedFailure, BiConsumer<List<P>, Throwable> unfinished) {
    this.batchSize = batchSize;
    this.closedFailure = closedFailure;
    this.unfinished = unfinished;
  }

  /**
   * Queues the item and returns once a batch holding it has ended; commits that batch on this
   * thread when it finds the writer free. An interrupt does not take a queued item back: the thread
   * waits it out and returns with its interrupt status set.
   *
   * @throws RuntimeException the closed failure, when the batches closed before the item was taken
   * @throws Error or RuntimeException what {@code commit} threw for a batch holding this item and
   *     committed on this thread, after the writer is free again
   */
  void join(P item, Consumer<List<P>> commit) {
    Node<P> node = new Node<>(item);
    boolean interrupted = false;
    synchronized (queue) {
      if (closed) throw closedFailure.get();
      queue.add(node);
    }
    try {
      while (true) {
        List<Node<P>> batch = new ArrayList<>();
        synchronized (queue) {
          while (writing && !node.done) {
            try {
              queue.wait();
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
          if (node.done) return;
          if (closed) {
            queue.remove(node);
            throw closedFailure.get();
          }
          writing = true;
          holder = Thread.currentThread();
          while (!queue.isEmpty() && batch.size() < batchSize) batch.add(queue.poll());
        }
        commitAndFree(node, batch, commit);
      }
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }

  /**
   * Commits the batch and frees the writer. When the commit throws, the batch's items are handed to
   * {@code unfinished} with what it threw, and the thread gets it only when its own item was among
   * them: otherwise its own is still queued, and it goes on waiting for it.
   */
  private void commitAndFree(Node<P> own, List<Node<P>> batch, Consumer<List<P>> commit) {
    List<P> items = new ArrayList<>(batch.size());
    for (Node<P> node : batch) items.add(node.item);
    Throwable failure = null;
    try {
      commit.accept(items);
    } catch (Throwable t) { // an Error too: the writer is freed, and the batch's items told
      failure = t;
      unfinished.accept(items, t);
    } finally {
      synchronized (queue) {
        for (Node<P> node : batch) node.done = true;
        writing = false;
        holder = null;
        queue.notifyAll();
      }
    }
    if (failure != null && batch.contains(own)) {
      if (failure instanceof RuntimeException e) throw e;
      if (failure instanceof Error e) throw e;
      throw new IllegalStateException(failure);
    }
  }

  /** Whether the thread holds the writer: it commits a batch now. */
  boolean heldBy(Thread thread) {
    return holder == thread;
  }

  /**
   * Waits for the batch being committed, then refuses every item from now on, those queued and not
   * taken included, with the closed failure.
   */
  void close() {
    boolean interrupted = false;
    synchronized (queue) {
      while (writing) {
        try {
          queue.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      closed = true;
      queue.notifyAll();
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /** Whether nothing is queued and the writer is free; for tests. */
  boolean idle() {
    synchronized (queue) {
      return queue.isEmpty() && !writing && holder == null;
    }
  }

  private static final class Node<P> {
    private final P item;
    private boolean done; // guarded by the queue

    Node(P item) {
      this.item = item;
    }
  }
}
