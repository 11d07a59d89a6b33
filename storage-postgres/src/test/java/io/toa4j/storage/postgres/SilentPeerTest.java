package io.toa4j.storage.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Json;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.UnreachableException;
import io.toa4j.spi.Write;
import io.toa4j.testkit.net.NetworkHost;
import io.toa4j.testkit.postgres.PostgresCluster;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A process whose link to PostgreSQL drops silently (a {@link NetworkHost} whose router stops
 * forwarding: no FIN, no RST, packets simply stop) while one of its pool's connections is inside a
 * transaction holding a row lock. The client gives up on a quiet connection after the socket
 * timeout (8 s by default) instead of waiting for TCP; the server ends the dead sessions, rolls the
 * transaction back and frees the row, within 5 s by TCP keepalives; once the link is back the pool
 * has new connections and writes work, without the storage being opened anew.
 */
@Needs({Server.POSTGRES_PROGRAMS, Server.NETWORK_NAMESPACES})
class SilentPeerTest {
  /** What a silently cut-off process may hold, and how long its write may wait: docs/faults.md. */
  static final Duration BOUND = Duration.ofSeconds(10);

  /** Beyond a bound, for a machine busy with other builds. */
  static final Duration SLACK = Duration.ofSeconds(2);

  static final Duration RECOVERY = Duration.ofSeconds(30);
  static final String A = "a".repeat(32);
  static final String B = "b".repeat(32);

  @Test
  void
      linkDroppedInATransaction_statementFailsWithinTheBound_serverEndsTheSessionsAndFreesTheRow_andWritesWorkAfterHealing()
          throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try (NetworkHost host = NetworkHost.create();
        PostgresCluster cluster = PostgresCluster.startOn(host)) {
      cluster.createDatabase("toa");
      PostgresStorage storage =
          (PostgresStorage) TestDatabase.open(Map.of("url", cluster.url("toa"), "pool-size", "2"));
      try {
        Store store = storage.store("silent.wallets");
        store.commit(created(A));
        String records = Schema.of("silent.wallets").table("records");
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch dropped = new CountDownLatch(1);
        AtomicReference<SQLException> lost = new AtomicReference<>();
        Future<Long> failedAfter =
            thread.submit(() -> holdingTheRow(storage, records, locked, dropped, lost));
        assertThat(locked.await(RECOVERY.toSeconds(), TimeUnit.SECONDS))
            .as("the row is locked")
            .isTrue();
        List<String> before = sessionsFrom(host, cluster);

        host.drop();
        dropped.countDown();

        await()
            .atMost(BOUND)
            .until(() -> Collections.disjoint(before, sessionsFrom(host, cluster)));
        assertThat(
                psql(
                    host,
                    cluster,
                    "BEGIN; SET LOCAL lock_timeout = '1s';"
                        + " UPDATE "
                        + records
                        + " SET updated = updated + 1 WHERE id = '"
                        + A
                        + "'; ROLLBACK"))
            .as("the row is free: its transaction was rolled back")
            .contains("ROLLBACK");
        assertThat(failedAfter.get(BOUND.plus(SLACK).toSeconds(), TimeUnit.SECONDS))
            .as("the statement sent into the dropped link failed after")
            .isLessThan(BOUND.plus(SLACK).toNanos());
        assertThat(lost.get().getSQLState())
            .as("a lost connection: %s", lost.get())
            .startsWith("08");
        long writeAt = System.nanoTime();
        assertThatThrownBy(() -> store.commit(created(B)))
            .as("a write while the link is down")
            .isInstanceOf(UnreachableException.class);
        assertThat(since(writeAt)).as("the write failed after").isLessThan(BOUND.plus(SLACK));

        host.restore();

        await()
            .atMost(RECOVERY)
            .ignoreException(UnreachableException.class)
            .until(() -> store.commit(created(B)) != null);
        assertThat(store.read(B)).isPresent();
        assertThat(sessionsFrom(host, cluster))
            .as("the pool's sessions now")
            .isNotEmpty()
            .doesNotContainAnyElementsOf(before);
      } finally {
        host.restore();
        storage.close();
      }
    } finally {
      thread.shutdownNow();
    }
  }

  /**
   * On a connection of the storage's pool: locks the row in a transaction, waits for the link to
   * drop, then sends a statement into it; how long the statement took to fail, in nanoseconds.
   */
  private static long holdingTheRow(
      PostgresStorage storage,
      String records,
      CountDownLatch locked,
      CountDownLatch dropped,
      AtomicReference<SQLException> lost)
      throws Exception {
    try {
      return storage.withConnection(
          c -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
              s.execute("UPDATE " + records + " SET updated = updated + 1 WHERE id = '" + A + "'");
              locked.countDown();
              awaitQuietly(dropped);
              long start = System.nanoTime();
              try {
                s.execute("SELECT 1");
              } catch (SQLException e) {
                lost.set(e);
                return System.nanoTime() - start;
              }
              throw new AssertionError("a statement went through the dropped link");
            }
          });
    } catch (SQLException e) { // giving the lost connection back to the pool may fail too
      if (lost.get() == null) throw e;
      return 0L;
    }
  }

  /**
   * The process ids of the sessions from this process's end of the link, as the server lists them.
   */
  private static List<String> sessionsFrom(NetworkHost host, PostgresCluster cluster) {
    String out =
        psql(
            host,
            cluster,
            "SELECT pid FROM pg_stat_activity WHERE client_addr = '" + host.peer() + "'");
    return out.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
  }

  /** Runs SQL with psql on the host itself, which the link's state does not touch. */
  private static String psql(NetworkHost host, PostgresCluster cluster, String sql) {
    return host.exec(
        "psql",
        "-h",
        cluster.address(),
        "-p",
        String.valueOf(cluster.port()),
        "-U",
        "postgres",
        "-d",
        "toa",
        "-AtX",
        "-c",
        sql);
  }

  private static Write created(String id) {
    return new Write(
        0, new StoredRecord(id, 1, 1, 1, new Json("{}")), Optional.empty(), Optional.empty());
  }

  private static Duration since(long nanos) {
    return Duration.ofNanos(System.nanoTime() - nanos);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(RECOVERY.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
