package io.toa4j.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The hand-off of a group commit: items queue up, and whichever waiting thread finds the writer
 * free takes everything queued (up to the batch size) and commits it for all; an item's thread
 * returns once a batch holding it has committed, and throws what the commit threw when it did not.
 *
 * <p>An item is QUEUED (waiting), then TAKEN (in the batch its holder commits), then ENDED (that
 * batch ended: committed, or failed with what it threw); or, from QUEUED, REFUSED (the batches
 * closed before it was taken: it leaves the queue and its thread throws the closed failure). The
 * writer is FREE or HELD: only a thread whose own item is still QUEUED takes it, and that thread
 * gives it back on every path once its batch ended, marking the batch's items ENDED in the same
 * step; CLOSED, once {@link #close()} found it FREE, it is never held again. Every state is guarded
 * by the queue's monitor; checked with Lincheck.
 *
 * <p>A {@link StackOverflowError} is thrown on entering a method, so a step made of field reads and
 * writes alone either happens whole or not at all. Every move between states is such a step: the
 * queue is a chain of the items' own nodes, not a collection; taking a batch marks its nodes and
 * moves the head; ending it marks them again and frees the writer, in the {@code finally} of the
 * frame that took it, which had the stack for every call it made before. An item is ENDED committed
 * only when the commit returned: a batch that failed before or during its commit, however early,
 * fails every item it took. The storage contract's test that runs a commit out of stack at every
 * depth holds it to this.
 *
 * @param <P> an item: what a write leaves for the batch that commits it
 */
final class Batches<P> {
  /** Commits a batch of items; returns only when all of them are committed. */
  @FunctionalInterface
  interface Commit<P> {
    void commit(List<P> items) throws Exception;
  }

  private final int batchSize;
  private final Supplier<? extends RuntimeException> closedFailure;

  /** The monitor guarding every state. */
  private final Object lock = new Object();

  /** The chain of QUEUED nodes, oldest first; guarded by lock. */
  private Node<P> head;

  private Node<P> tail;
  private boolean writing; // guarded by lock
  private boolean closed; // guarded by lock

  /** The thread holding the writer, while one does. */
  private volatile Thread holder;

  /**
   * @param batchSize the most items one batch takes
   * @param closedFailure what an item queued or joining after {@link #close()} throws
   */
  Batches(int batchSize, Supplier<? extends RuntimeException> closedFailure) {
    this.batchSize = batchSize;
    this.closedFailure = closedFailure;
  }

  /**
   * Queues the item and returns once a batch holding it has committed; commits that batch on this
   * thread when it finds the writer free. An interrupt does not take a queued item back: the thread
   * waits it out and returns with its interrupt status set.
   *
   * @throws RuntimeException the closed failure, when the batches closed before the item was taken
   * @throws Exception what the commit of the batch holding the item threw, as it was, after the
   *     writer is free again: none of the batch's items was committed
   */
  void join(P item, Commit<P> commit) throws Exception {
    Node<P> node = new Node<>(item);
    Thread me = Thread.currentThread();
    boolean interrupted = false;
    synchronized (lock) {
      if (closed) throw closedFailure.get();
      append(node);
    }
    try {
      while (true) {
        Node<P> first;
        Node<P> last;
        synchronized (lock) {
          while (!node.ended && (node.taken || writing)) {
            try {
              lock.wait();
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
          if (node.ended) break;
          if (closed) {
            unlink(node);
            throw closedFailure.get();
          }
          first = head;
          last = take(); // whole or not at all; the writer is taken after it, with fields alone
          writing = true;
          holder = me;
        }
        Throwable failure = null;
        try {
          List<P> items = new ArrayList<>(batchSize);
          for (Node<P> n = first; ; n = n.next) {
            items.add(n.item);
            if (n == last) break;
          }
          commit.commit(items);
        } catch (Throwable t) { // an Error too: the batch failed, and its items with it
          failure = t;
        } finally {
          synchronized (lock) {
            for (Node<P> n = first; ; n = n.next) {
              n.failure = failure;
              n.ended = true;
              if (n == last) break;
            }
            writing = false;
            holder = null;
            lock.notifyAll();
          }
        }
      }
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
    Throwable failure =
        node.failure; // written before ended, under the lock this thread read ended under
    if (failure == null) return;
    if (failure instanceof Exception e) throw e;
    if (failure instanceof Error e) throw e;
    throw new IllegalStateException(failure);
  }

  /** Adds the node at the end of the chain: fields alone. Under the lock. */
  private void append(Node<P> node) {
    if (tail == null) head = node;
    else tail.next = node;
    tail = node;
  }

  /**
   * Takes the first nodes of the chain, up to the batch size, and answers the last of them; the
   * chain is never empty here (the caller's own node is in it). Fields alone. Under the lock.
   */
  private Node<P> take() {
    Node<P> last = head;
    last.taken = true;
    for (int n = 1; n < batchSize && last.next != null; n++) {
      last = last.next;
      last.taken = true;
    }
    head = last.next;
    if (head == null) tail = null;
    return last;
  }

  /** Takes a QUEUED node out of the chain, refused. Fields alone. Under the lock. */
  private void unlink(Node<P> node) {
    Node<P> before = null;
    for (Node<P> n = head; n != node; n = n.next) before = n;
    if (before == null) head = node.next;
    else before.next = node.next;
    if (tail == node) tail = before;
    node.next = null;
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
    synchronized (lock) {
      while (writing) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      closed = true;
      lock.notifyAll();
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /** Whether nothing is queued and the writer is free; for tests. */
  boolean idle() {
    synchronized (lock) {
      return head == null && !writing && holder == null;
    }
  }

  /** An item and its state; every field guarded by the lock. */
  private static final class Node<P> {
    private final P item;

    /** The next QUEUED node, while this one is QUEUED; the next of its batch once TAKEN. */
    private Node<P> next;

    private boolean taken;
    private boolean ended;

    /** Once ENDED: null when its batch committed, else what the commit threw. */
    private Throwable failure;

    Node(P item) {
      this.item = item;
    }
  }
}
