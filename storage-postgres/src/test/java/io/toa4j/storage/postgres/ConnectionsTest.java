package io.toa4j.storage.postgres;

import static io.toa4j.testkit.servers.Server.POSTGRES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.spi.OutageLog;
import io.toa4j.sql.Connections;
import io.toa4j.testkit.servers.Needs;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The gate in front of the pool, on a real server: threads beyond the connections wait at it, never
 * inside HikariCP.
 */
@Needs(POSTGRES)
class ConnectionsTest {
  @Test
  void moreThreadsThanConnections_allRun_atMostAsManyAtOnceAsConnections_noneWaitingInsideThePool()
      throws Exception {
    try (HikariDataSource pool = pool(2, Duration.ofSeconds(10))) {
      Connections connections = PostgresStorage.connections(pool);
      // HikariCP opens its connections in the background: until then a thread past the gate waits
      // for one
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> pool.getHikariPoolMXBean().getIdleConnections() == 2);
      AtomicInteger inside = new AtomicInteger();
      AtomicInteger most = new AtomicInteger();
      AtomicInteger waitingInPool = new AtomicInteger();
      AtomicInteger ran = new AtomicInteger();
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          done.add(
              threads.submit(
                  () -> {
                    for (int n = 0; n < 20; n++) {
                      connections.run(
                          c -> {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            waitingInPool.accumulateAndGet(
                                pool.getHikariPoolMXBean().getThreadsAwaitingConnection(),
                                Math::max);
                            try (Statement s = c.createStatement()) {
                              s.execute("SELECT pg_sleep(0.002)");
                            }
                            inside.decrementAndGet();
                            return ran.incrementAndGet();
                          });
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
      } finally {
        threads.shutdownNow();
      }
      assertThat(ran.get()).isEqualTo(160);
      assertThat(most.get()).as("connections in use at once").isEqualTo(2);
      // HikariCP counts a borrowing thread as waiting from before it scans for an idle connection:
      // the
      // one other thread past the gate may be counted on its way through; without the gate, the six
      // beyond the connections wait there
      assertThat(waitingInPool.get())
          .as("threads seen waiting inside HikariCP, besides the one other thread past the gate")
          .isLessThanOrEqualTo(1);
    }
  }

  @Test
  void everyConnectionHeldPastTheTimeout_theNextFailsAfterIt_sayingSo() throws Exception {
    Duration timeout = Duration.ofMillis(300);
    try (HikariDataSource pool = pool(1, timeout)) {
      Connections connections = PostgresStorage.connections(pool);
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      ExecutorService holder = Executors.newSingleThreadExecutor();
      try {
        Future<?> held =
            holder.submit(
                () ->
                    connections.run(
                        c -> {
                          holding.countDown();
                          return held(release);
                        }));
        assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
        long started = System.nanoTime();
        assertThatThrownBy(() -> connections.run(c -> 1))
            .isInstanceOf(SQLTransientConnectionException.class)
            .hasMessageContaining(
                "every one of its 1 connections stayed in use for 300 ms, and PostgreSQL answered none of their work meanwhile")
            .satisfies(
                none ->
                    assertThat(
                            OutageLog.isOutage(
                                new Failures(TestDatabase.SERVER).of("read", (Exception) none)))
                        .as(
                            "a server that answered nothing for the whole timeout is out of reach: one WARN, then an INFO")
                        .isTrue());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(timeout);
        release.countDown();
        held.get(30, TimeUnit.SECONDS);
        int after = connections.run(c -> 2);
        assertThat(after).as("the gate opens again once the connection is back").isEqualTo(2);
      } finally {
        release.countDown();
        holder.shutdownNow();
      }
    }
  }

  /**
   * A connection whose discard never ends — as when an {@code Error} left its socket's lock held,
   * so that closing it waits for good — holds up no other: the connections of later works cut short
   * leave the pool, new ones take their place, and the gate goes on lending.
   */
  @Test
  void aDiscardThatNeverEnds_holdsUpNoOther_andTheGateGoesOnLending() throws Exception {
    try (HikariDataSource pool = pool(2, Duration.ofSeconds(10))) {
      CountDownLatch never = new CountDownLatch(1);
      AtomicInteger discarded = new AtomicInteger();
      Connections connections =
          new Connections(
              pool,
              new Connections.Pool(
                  "stuck",
                  2,
                  10_000,
                  "PostgreSQL",
                  Failures::isUnreachable,
                  c -> {
                    pool.evictConnection(c);
                    discarded.incrementAndGet();
                    if (discarded.get() == 1) held(never); // the first: its close never ends
                  }));
      try {
        for (int i = 0; i < 4; i++) {
          assertThatThrownBy(
                  () ->
                      connections.run(
                          c -> {
                            throw new IllegalStateException(
                                "cut short in the middle of the exchange");
                          }))
              .isInstanceOf(IllegalStateException.class);
        }
        await("every connection cut short discarded, the first still closing")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    discarded.get() == 4 && pool.getHikariPoolMXBean().getActiveConnections() == 0);
        for (int i = 0; i < 20; i++)
          assertThat((long) connections.run(c -> single(c, "SELECT 7"))).isEqualTo(7L);
        assertThat(never.getCount()).as("the first discard still had not ended").isEqualTo(1);
      } finally {
        never.countDown();
      }
    }
  }

  @Test
  void
      everyConnectionInUsePastTheTimeout_someAnsweredAndGivenBackToCallsThatWaitedBefore_isAnOverload_notAnOutage()
          throws Exception {
    SQLTransientConnectionException busy =
        thirdCallsFailure_afterTheFirstEndsAndTheSecondTakesItsConnection(false);
    assertThat((Object) busy)
        .isNotInstanceOf(Connections.Unanswered.class); // (Object): an SQLException is Iterable too
    assertThat(busy.getMessage())
        .contains(
            "every one of its 1 connections stayed in use for 1500 ms; the 1 given back meanwhile, answered");
    assertThat(OutageLog.isOutage(new Failures(TestDatabase.SERVER).of("read", busy)))
        .as("a server that answers, with more work than connections, is not out of reach")
        .isFalse();
  }

  @Test
  void everyConnectionInUsePastTheTimeout_theOnlyOneGivenBackLost_isAnOutage() throws Exception {
    SQLTransientConnectionException silent =
        thirdCallsFailure_afterTheFirstEndsAndTheSecondTakesItsConnection(true);
    assertThat((Object) silent).isInstanceOf(Connections.Unanswered.class);
    assertThat(OutageLog.isOutage(new Failures(TestDatabase.SERVER).of("read", silent)))
        .as("a connection given back lost is no answer of the server's")
        .isTrue();
  }

  /**
   * On a pool of one connection: the first call holds it, a second and then a third wait at the
   * gate; the first ends (its connection lost, when {@code lost}: its session terminated by the
   * server) and the second, which waited before, takes the connection and holds it past the third's
   * timeout. The third's failure.
   */
  private static SQLTransientConnectionException
      thirdCallsFailure_afterTheFirstEndsAndTheSecondTakesItsConnection(boolean lost)
          throws Exception {
    try (HikariDataSource pool = pool(1, Duration.ofMillis(1500))) {
      Connections connections = PostgresStorage.connections(pool);
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch releaseFirst = new CountDownLatch(1);
      CountDownLatch releaseSecond = new CountDownLatch(1);
      ExecutorService threads = Executors.newFixedThreadPool(3);
      try {
        Future<?> first =
            threads.submit(
                () ->
                    connections.run(
                        c -> {
                          long pid = single(c, "SELECT pg_backend_pid()");
                          holding.countDown();
                          held(releaseFirst);
                          if (lost) {
                            try (Connection admin = TestDatabase.connect()) {
                              single(admin, "SELECT count(pg_terminate_backend(" + pid + "))");
                            }
                          }
                          return single(c, "SELECT 1"); // fails when its session was terminated
                        }));
        assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
        Future<?> second = threads.submit(() -> connections.run(c -> held(releaseSecond)));
        awaitWaitingAtTheGate(connections, 1);
        Future<Integer> third = threads.submit(() -> connections.run(c -> 3));
        awaitWaitingAtTheGate(connections, 2);
        releaseFirst
            .countDown(); // its connection given back, to the call that waited before the third

        ExecutionException failed =
            catchThrowableOfType(ExecutionException.class, () -> third.get(30, TimeUnit.SECONDS));
        assertThat(failed).as("the third call fails").isNotNull();
        assertThat(catchThrowable(() -> first.get(30, TimeUnit.SECONDS)))
            .as("the first, lost")
            .matches(t -> lost == (t != null));
        releaseSecond.countDown();
        second.get(30, TimeUnit.SECONDS);
        assertThat(failed.getCause()).isInstanceOf(SQLTransientConnectionException.class);
        return (SQLTransientConnectionException) failed.getCause();
      } finally {
        releaseFirst.countDown();
        releaseSecond.countDown();
        threads.shutdownNow();
      }
    }
  }

  private static void awaitWaitingAtTheGate(Connections connections, int threads) {
    await().atMost(Duration.ofSeconds(10)).until(() -> connections.waiting() == threads);
  }

  private static long single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Holds the connection until the test releases it; whether it did within 30 s. */
  private static boolean held(CountDownLatch release) {
    try {
      return release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static HikariDataSource pool(int size, Duration timeout) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(TestDatabase.SERVER.url());
    TestDatabase.SERVER.user().ifPresent(config::setUsername);
    TestDatabase.SERVER.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(size);
    config.setConnectionTimeout(timeout.toMillis());
    return new HikariDataSource(config);
  }
}
