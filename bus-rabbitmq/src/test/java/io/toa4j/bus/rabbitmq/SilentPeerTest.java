package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.bus.BusContract;
import io.toa4j.testkit.logs.CapturedLog;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A process whose connections to the broker go quiet (a dropped link: no FIN, no RST, packets
 * simply stop; {@link TcpProxy#silence}) while its handlers hold deliveries. The heartbeat (2 s by
 * default) makes the broker close the quiet connection within 2 to 3 heartbeats and give what it
 * held to the other consumer of the queue; the cut-off bus notices it too, tries to connect again
 * every second, each try into the dropped link given up after the handshake timeout, recovers once
 * the link is back, and consumes again, without being opened anew. The loss is one WARN per
 * connection, without a stack trace.
 */
@Needs({Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class SilentPeerTest {
  /** What a silently cut-off process may hold at most: the bound named in docs/faults.md. */
  static final Duration BOUND = Duration.ofSeconds(10);

  /** How long a recovery after the link's return may take: a try every second, each bounded. */
  static final Duration RECOVERY = Duration.ofSeconds(30);

  final String vhost = VirtualHosts.freshName();
  final String queue = "q.tasks";

  @BeforeEach
  void createVirtualHost() throws Exception {
    VirtualHosts.create(vhost);
  }

  @AfterEach
  void deleteIt() throws Exception {
    VirtualHosts.delete(vhost);
  }

  @Test
  void
      consume_connectionSilentlyCutWhileHandlersHoldDeliveries_otherBusGetsThemWithinTheBound_andTheCutBusConsumesAgainAfterHealing()
          throws Exception {
    int held = 4; // within the prefetch window: the cut bus takes them all
    CountDownLatch release = new CountDownLatch(1);
    Set<String> takenByCut = ConcurrentHashMap.newKeySet();
    Set<String> seenByOther = ConcurrentHashMap.newKeySet();
    int port = TcpProxy.freePort();
    try (CapturedLog log = CapturedLog.start();
        TcpProxy proxy = TcpProxy.start(port, Server.RABBITMQ.host(), Server.RABBITMQ.port())) {
      Bus cut =
          Broker.open(Clock.systemUTC(), Map.of(Tuning.URL, Server.RABBITMQ.url(vhost, port)));
      Bus other = Broker.open(Clock.systemUTC(), Map.of(Tuning.URL, Server.RABBITMQ.url(vhost)));
      try {
        cut.consume(
            queue,
            delivery -> {
              takenByCut.add(delivery.message().id());
              if (delivery.message().id().startsWith("held-"))
                awaitQuietly(release); // holds it through the cut
              return Verdict.DONE;
            });
        List<String> ids = IntStream.range(0, held).mapToObj(i -> "held-" + i).toList();
        for (String id : ids) other.send(queue, message(id));
        await().atMost(RECOVERY).until(() -> takenByCut.containsAll(ids));
        Bus.Subscription otherConsumer =
            other.consume(
                queue,
                delivery -> {
                  seenByOther.add(delivery.message().id());
                  return Verdict.DONE;
                });

        long cutAt = System.nanoTime();
        int connectionsAtCut = proxy.accepted();
        proxy.silence();

        await().atMost(BOUND).until(() -> seenByOther.containsAll(ids));
        long handedOverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
        assertThat(handedOverMillis)
            .as("the held deliveries reached the other bus after the cut")
            .isLessThan(BOUND.toMillis());
        release.countDown(); // their verdicts go to a connection already gone
        otherConsumer.close();
        // both connections gave up and tried again into the dropped link, one try at least timed
        // out
        await().atMost(RECOVERY).until(() -> proxy.accepted() >= connectionsAtCut + 3);

        proxy.heal();

        other.send(queue, message("after"));
        await().atMost(RECOVERY).until(() -> takenByCut.contains("after"));
        await().atMost(RECOVERY).until(() -> other.depth(queue) == 0);
      } finally {
        release.countDown();
        proxy.heal();
        cut.close();
        other.close();
      }
      assertThat(log.lines(" WARN ", "heard nothing from the broker for two heartbeats of 2 s"))
          .as("each of the cut bus's connections: one WARN")
          .hasSize(2);
      assertThat(log.stackTraces())
          .as("a dropped link logs no stack trace, nor does each try to connect into it")
          .isEmpty();
    }
  }

  private static Message message(String id) {
    return BusContract.message(id, "q.task");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(RECOVERY.toSeconds() * 2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
