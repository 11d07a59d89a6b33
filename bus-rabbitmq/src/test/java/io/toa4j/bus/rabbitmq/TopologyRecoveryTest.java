package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.bus.BusContract;
import io.toa4j.testkit.logs.CapturedLog;
import io.toa4j.testkit.net.TcpProxy;
import io.toa4j.testkit.rabbitmq.VirtualHosts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A broker that lost its definitions while the bus could not reach it (the virtual host deleted and
 * made again, as a broker restarted without its data would be): once it is back, automatic recovery
 * declares the whole topology again and every message published after the return is delivered.
 * Before, many threads publish at once, so the publishing pool opens more channels than it keeps
 * and closes the others; the topology lives on a channel of its own that the pool never closes, so
 * recovery does not meet "channel is already closed".
 */
@Needs({Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class TopologyRecoveryTest {
  static final Duration BOUND = Duration.ofSeconds(60);
  static final int THREADS = 3 * Channels.KEEP;

  final String vhost = VirtualHosts.freshName();
  final String queue = "q.events";
  final String label = "q.created";
  final String calls = "q..calls";
  final Set<String> received = ConcurrentHashMap.newKeySet();
  final ExecutorService publishers = Executors.newFixedThreadPool(THREADS);

  @BeforeEach
  void createVirtualHost() throws Exception {
    VirtualHosts.create(vhost);
  }

  @AfterEach
  void deleteIt() throws Exception {
    publishers.shutdownNow();
    VirtualHosts.delete(vhost);
  }

  @Test
  void definitionsLostWhileAway_recoveryDeclaresThemAgain_andEveryMessageAfterTheReturnIsDelivered()
      throws Exception {
    int port = TcpProxy.freePort();
    try (CapturedLog log = CapturedLog.start();
        TcpProxy proxy = TcpProxy.start(port, Server.RABBITMQ.host(), Server.RABBITMQ.port())) {
      Bus bus = Broker.open(Clock.systemUTC(), Map.of("url", Server.RABBITMQ.url(vhost, port)));
      try {
        bus.declare(queue, Set.of(label));
        bus.consume(
            queue,
            delivery -> {
              received.add(delivery.message().id());
              return Verdict.DONE;
            });
        bus.calls()
            .orElseThrow()
            .serve(
                calls,
                delivery ->
                    new Message(
                        delivery.message().id(), "q.answer", delivery.message().body(), Map.of()));

        List<String> before = publishConcurrently(bus, "before-", 20 * THREADS);
        await().atMost(BOUND).until(() -> received.containsAll(before));
        assertThat(answered(bus, "call-before")).isTrue();

        proxy.down();
        VirtualHosts.delete(vhost);
        VirtualHosts.create(vhost);
        assertThatThrownBy(() -> declaredPassively(Topology.EVENTS, true))
            .as("the broker lost the exchange while the bus was away")
            .isInstanceOf(IOException.class);
        proxy.up();

        List<String> after = publishConcurrently(bus, "after-", 20 * THREADS);
        await().atMost(BOUND).until(() -> received.containsAll(after));
        await().atMost(BOUND).until(() -> answered(bus, "call-after-" + System.nanoTime()));
        for (String q : List.of(queue, Topology.retryQueue(queue), Topology.PARKED, calls))
          declaredPassively(q, false);
        declaredPassively(Topology.EVENTS, true);
      } finally {
        bus.close();
      }
      assertThat(log.lines("recovering topology"))
          .as("automatic recovery declared everything again")
          .isEmpty();
      // what recovery met when the topology lived on channels the pool closes; a consumer's own
      // outage may say "connection is already closed", which is its one WARN, counted below
      assertThat(log.lines("channel is already closed"))
          .as("recovery met no closed channel")
          .isEmpty();
      assertThat(log.lines("The consumer of queue " + queue, " WARN "))
          .as("the lost consumer: one WARN")
          .hasSize(1);
      assertThat(log.lines("The consumer of queue " + queue, " INFO ", "is back after"))
          .as("and one INFO")
          .hasSize(1);
      assertThat(log.stackTraces()).as("an outage logs no stack trace").isEmpty();
    }
  }

  /**
   * Publishes {@code count} events from {@link #THREADS} threads at once, each repeated until the
   * bus takes it (as the outbox does), within the bound; their ids.
   */
  private List<String> publishConcurrently(Bus bus, String prefix, int count) throws Exception {
    List<String> ids = new ArrayList<>();
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = prefix + i;
      ids.add(id);
      done.add(
          publishers.submit(
              () -> {
                long deadline = System.nanoTime() + BOUND.toNanos();
                while (true) {
                  try {
                    bus.publish(BusContract.message(id, label));
                    return null;
                  } catch (IllegalStateException e) {
                    if (System.nanoTime() > deadline) throw e;
                    LockSupport.parkNanos(
                        TimeUnit.MILLISECONDS.toNanos(
                            20)); // paces the repeats, as the outbox's sweep does
                  }
                }
              }));
    }
    for (Future<?> f : done) f.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    return ids;
  }

  private boolean answered(Bus bus, String id) {
    try {
      return bus.calls()
              .orElseThrow()
              .request(calls, BusContract.message(id, "q.ask"), Duration.ofSeconds(5))
          instanceof Response.Answered;
    } catch (IllegalStateException e) { // the bus is not back yet
      return false;
    }
  }

  /**
   * Passively declares a queue or an exchange of the test's virtual host, straight to the broker.
   */
  private void declaredPassively(String name, boolean exchange) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(Server.RABBITMQ.url(vhost));
    factory.setAutomaticRecoveryEnabled(false);
    try (Connection connection = factory.newConnection("toa4j test check");
        Channel channel = connection.createChannel()) {
      if (exchange) channel.exchangeDeclarePassive(name);
      else channel.queueDeclarePassive(name);
    }
  }
}
