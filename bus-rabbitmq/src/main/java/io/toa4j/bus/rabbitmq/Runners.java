package io.toa4j.bus.rabbitmq;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bus's own threads, on which its callers' work with the broker runs.
 *
 * <p>A caller can be anywhere in its stack: an operation deep in a recursion calls another
 * component. A {@link StackOverflowError} met inside the RabbitMQ client, or in the JDK socket
 * under it, can leave a lock held by a thread that has left it ({@code NioSocketImpl} frees its
 * write lock in a {@code finally}, which needs a frame of its own), and every later write on the
 * connection then waits for it forever. So a caller's thread never enters the client: it hands its
 * work over and waits for the answer, and the work runs on a thread of these, which starts at the
 * bottom of its stack. The hand-off is made of field writes under monitors, which the JVM releases
 * on every way out, {@code Error} included.
 *
 * <p>A work is <b>queued</b> (linked in the queue, under this object's monitor), then <b>taken</b>
 * by a runner (unlinked, under the same monitor), then <b>done</b> (its result or failure set,
 * under the work's own monitor, and its waiter woken). A caller that an {@code Error} or an
 * interrupt stops before the work is linked leaves nothing behind; after, it leaves the work to run
 * and be done with nobody waiting (a publish may so leave, as one whose connection was lost).
 * Runners are started by runners only, the first at construction: a runner that takes a work and
 * leaves no other idle starts one more, up to {@code most}, so the next work finds one waiting. A
 * runner idle for the idle time ends unless it is the last. Closing fails the works still queued
 * and ends the runners once their works are done. Thread-safe.
 */
final class Runners implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Runners.class);

  /** Work for a runner, with the failures a piece of work with the broker has. */
  @FunctionalInterface
  interface Task<T> {
    T run() throws IOException, InterruptedException, TimeoutException;
  }

  private final String name;
  private final int most;
  private final long idleNanos;

  /** The queue, {@code head} to {@code tail} through {@link Work#next}; guarded by this. */
  private Work<?> head;

  private Work<?> tail;
  private int runners;
  private int idle;
  private int started;
  private boolean closed;

  /**
   * @param name what the runners' threads are named after
   * @param most the most runners at once: the most works run at once, the others wait their turn
   * @param idle how long a runner waits for work before it ends, unless it is the last
   */
  Runners(String name, int most, Duration idle) {
    this.name = name;
    this.most = most;
    this.idleNanos = idle.toNanos();
    synchronized (this) {
      runners = 1;
    }
    start();
  }

  /**
   * Runs the task on a runner and answers what it answered, or throws what it threw; on a runner
   * already, runs it at once.
   *
   * @throws InterruptedException when interrupted while waiting; the task runs on
   */
  <T> T run(Task<T> task) throws IOException, InterruptedException, TimeoutException {
    if (Thread.currentThread() instanceof Runner) return task.run();
    Work<T> work = new Work<>(task, null);
    link(work);
    return work.answer();
  }

  /**
   * Hands the task to a runner and returns at once, without its answer: what it throws goes to
   * {@code failed}, on the runner. On a runner already, runs it at once.
   *
   * @throws IOException when the runners are closed, before anything is handed over
   */
  void send(Task<?> task, Consumer<Throwable> failed) throws IOException {
    Work<?> work = new Work<>(task, failed);
    if (Thread.currentThread() instanceof Runner) {
      work.run();
      return;
    }
    link(work);
  }

  /** Links the work at the queue's tail and wakes an idle runner for it. */
  private synchronized void link(Work<?> work) throws IOException {
    if (closed) throw new IOException("the bus is closed");
    if (runners == 0)
      throw new IOException(
          "the bus has no thread left to talk to the broker: none could be started");
    notify(); // an idle runner, which takes the work once this monitor is left; before the link, so
    // an Error here links nothing
    if (tail == null) {
      head = work;
    } else {
      tail.next = work;
    }
    tail = work;
  }

  private void runOn() {
    while (true) {
      Work<?> work;
      boolean another;
      synchronized (this) {
        long deadline = System.nanoTime() + idleNanos;
        while (head == null && !closed) {
          long left = deadline - System.nanoTime();
          if (left <= 0 && runners > 1) {
            runners--;
            return;
          }
          idle++;
          try {
            if (left > 0) {
              TimeUnit.NANOSECONDS.timedWait(this, left);
            } else {
              wait();
            }
          } catch (InterruptedException e) {
            // nothing here interrupts a runner: it goes on until closed
          } finally {
            idle--;
          }
        }
        if (head == null) {
          runners--;
          return;
        }
        work = head;
        head = work.next;
        work.next = null;
        if (head == null) tail = null;
        another = idle == 0 && runners < most;
        if (another) runners++;
      }
      if (another) start();
      work.run();
    }
  }

  private void start() {
    int n;
    synchronized (this) {
      n = ++started;
    }
    try {
      new Runner(this::runOn, name + "-" + n).start();
    } catch (RuntimeException
        | OutOfMemoryError e) { // no thread to be had: the works wait for the runners there are
      synchronized (this) {
        runners--;
      }
      LOG.warn(
          "Could not start a thread to talk to the broker ({} runners go on): {}",
          name,
          e.toString());
    }
  }

  /** How many runners there are now; for tests. */
  synchronized int runners() {
    return runners;
  }

  /** Fails the works still queued, and lets each runner end once its work is done. */
  @Override
  public void close() {
    Work<?> queued;
    synchronized (this) {
      closed = true;
      queued = head;
      head = null;
      tail = null;
      notifyAll();
    }
    for (Work<?> w = queued; w != null; ) {
      Work<?> next = w.next;
      w.next = null;
      w.fail(new IOException("the bus closed before this was sent to the broker"));
      w = next;
    }
  }

  /** A runner's thread: a work handed over on it runs there, not on another runner. */
  private static final class Runner extends BusThread {
    Runner(Runnable body, String name) {
      super(body, name);
    }
  }

  /**
   * One task handed over, and its answer once a runner ran it (or the close failed it); a task sent
   * without waiting tells its failure to {@code told}, once, on the thread that settles it.
   */
  private static final class Work<T> {
    final Task<T> task;
    private final Consumer<Throwable> told;
    Work<?> next; // guarded by the Runners' monitor
    private boolean done; // guarded by this
    private T result;
    private Throwable failure;

    Work(Task<T> task, Consumer<Throwable> told) {
      this.task = task;
      this.told = told;
    }

    void run() {
      T answered = null;
      Throwable thrown = null;
      try {
        answered = task.run();
      } catch (Throwable t) { // handed to the caller, whatever it is: the runner goes on
        thrown = t;
      }
      settle(answered, thrown);
    }

    void fail(Throwable thrown) {
      settle(null, thrown);
    }

    private void settle(T answered, Throwable thrown) {
      synchronized (this) {
        result = answered;
        failure = thrown;
        done = true;
        notifyAll();
      }
      if (thrown == null || told == null) return;
      try {
        told.accept(thrown);
      } catch (Throwable t) { // the runner goes on whatever the telling throws
        LOG.warn("Telling a failure to the sender of a work threw; the runner goes on", t);
      }
    }

    synchronized T answer() throws IOException, InterruptedException, TimeoutException {
      while (!done) wait();
      if (failure == null) return result;
      if (failure instanceof IOException e) throw e;
      if (failure instanceof InterruptedException e) throw e;
      if (failure instanceof TimeoutException e) throw e;
      if (failure instanceof RuntimeException e) throw e;
      if (failure instanceof Error e) throw e;
      throw new IllegalStateException(failure); // a task declares no other
    }
  }
}
