package io.toa4j.bus.embedded;

import static io.toa4j.bus.embedded.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedBusTest {
  private static final Duration QUIET = Duration.ofMillis(300);

  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);
  private EmbeddedBus bus;

  @BeforeEach
  void open() {
    bus = Fixtures.open(dir, clock);
  }

  @AfterEach
  void close() {
    bus.close();
  }

  @Test
  void publish_labelBoundToTwoQueues_eachConsumerGetsItOnce() {
    bus.declare("shop.orders.receiver", Set.of("shop.order.created"));
    bus.declare("shop.mail.receiver", Set.of("shop.order.created", "shop.order.cancelled"));
    Recorder orders = new Recorder();
    Recorder mail = new Recorder();
    bus.consume("shop.orders.receiver", orders);
    bus.consume("shop.mail.receiver", mail);

    bus.publish(message("e1", "shop.order.created"));

    await().atMost(Duration.ofSeconds(5)).until(() -> orders.count() == 1 && mail.count() == 1);
    await()
        .during(QUIET)
        .atMost(QUIET.multipliedBy(3))
        .until(() -> orders.count() + mail.count() == 2);
    assertThat(orders.deliveries().get(0).queue()).isEqualTo("shop.orders.receiver");
    assertThat(mail.deliveries().get(0).queue()).isEqualTo("shop.mail.receiver");
    assertThat(orders.attempts()).containsExactly(1);
  }

  @Test
  void publish_sameIdTwice_eachQueueHoldsItOnce() {
    bus.declare("a", Set.of("x.y.created"));
    bus.declare("b", Set.of("x.y.created"));

    bus.publish(message("e1", "x.y.created"));
    bus.publish(message("e1", "x.y.created"));

    assertThat(bus.depth("a")).isEqualTo(1);
    assertThat(bus.depth("b")).isEqualTo(1);
  }

  @Test
  void publish_sameIdWhileParked_isNotStoredAgain() {
    bus.declare("a", Set.of("x.y.created"));
    Recorder parker = new Recorder(d -> new Verdict.Park("SYSTEM", "broken"));
    bus.consume("a", parker);
    bus.publish(message("e1", "x.y.created"));
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == 1);

    bus.publish(message("e1", "x.y.created"));

    assertThat(bus.depth("a")).isZero();
    await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> parker.count() == 1);
  }

  @Test
  void publish_unboundLabel_storesNothing() {
    bus.declare("a", Set.of("x.y.created"));
    Recorder recorder = new Recorder();
    bus.consume("a", recorder);

    bus.publish(message("e1", "x.y.deleted"));

    assertThat(bus.depth("a")).isZero();
    assertThat(bus.depth("x.y.deleted")).isZero();
    await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> recorder.count() == 0);
  }

  @Test
  void publish_beforeQueueBound_isNotDeliveredToIt() {
    bus.publish(message("early", "x.y.created"));
    bus.declare("a", Set.of("x.y.created"));
    bus.publish(message("late", "x.y.created"));

    assertThat(bus.depth("a")).isEqualTo(1);
  }

  @Test
  void send_toUndeclaredQueue_isConsumedWithItsContent() {
    Message task = message("t1", "shop.orders.ship");
    bus.send("shop.orders", task);
    Recorder recorder = new Recorder();

    bus.consume("shop.orders", recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 1);
    Delivery delivery = recorder.deliveries().get(0);
    assertThat(delivery.message()).isEqualTo(task);
    assertThat(delivery.queue()).isEqualTo("shop.orders");
    assertThat(delivery.attempt()).isEqualTo(1);
  }

  @Test
  void send_sameIdTwice_queueHoldsItOnce() {
    bus.send("q", message("t1", "a.b.op"));
    bus.send("q", message("t1", "a.b.op"));
    bus.send("other", message("t1", "a.b.op"));

    assertThat(bus.depth("q")).isEqualTo(1);
    assertThat(bus.depth("other")).isEqualTo(1);
  }

  @Test
  void send_whileConsuming_isDeliveredPromptly() {
    Recorder recorder = new Recorder();
    bus.consume("q", recorder);

    bus.send("q", message("t1", "a.b.op"));

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 1);
  }

  @Test
  void consume_done_removesMessage() {
    bus.send("q", message("t1", "a.b.op"));
    assertThat(bus.depth("q")).isEqualTo(1);
    Recorder recorder = new Recorder();

    bus.consume("q", recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
    assertThat(recorder.count()).isEqualTo(1);
  }

  @Test
  void consume_retry_isRedeliveredOnlyAfterDelayByClockWithAttempt2() {
    Recorder recorder =
        new Recorder(
            d -> d.attempt() == 1 ? new Verdict.Retry(Duration.ofSeconds(10)) : Verdict.DONE);
    bus.send("q", message("t1", "a.b.op"));
    bus.consume("q", recorder);
    await().atMost(Duration.ofSeconds(5)).until(() -> dueAt("t1") == Fixtures.START + 10_000);

    clock.advance(Duration.ofMillis(9_999));
    await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> recorder.count() == 1);
    assertThat(bus.depth("q")).isEqualTo(1);

    clock.advance(Duration.ofMillis(1));
    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 2);
    assertThat(recorder.attempts()).containsExactly(1, 2);
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
  }

  @Test
  void consume_handlerThrows_redeliveredLaterWithHigherAttempt() {
    Recorder recorder =
        new Recorder(
            d -> {
              if (d.attempt() == 1) throw new IllegalStateException("boom");
              return Verdict.DONE;
            });
    bus.send("q", message("t1", "a.b.op"));
    bus.consume("q", recorder);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> dueAt("t1") == Fixtures.START + Deliveries.AFTER_FAILURE.toMillis());
    await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> recorder.count() == 1);

    clock.advance(Deliveries.AFTER_FAILURE);

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 2);
    assertThat(recorder.attempts()).containsExactly(1, 2);
  }

  @Test
  void consume_handlerAnswersNull_treatedAsFailure() {
    Recorder recorder = new Recorder(d -> d.attempt() == 1 ? null : Verdict.DONE);
    bus.send("q", message("t1", "a.b.op"));
    bus.consume("q", recorder);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> dueAt("t1") == Fixtures.START + Deliveries.AFTER_FAILURE.toMillis());

    clock.advance(Deliveries.AFTER_FAILURE);

    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
    assertThat(recorder.attempts()).containsExactly(1, 2);
  }

  @Test
  void consume_retryWithoutDelay_isRedeliveredAtOnce() {
    Recorder recorder =
        new Recorder(d -> d.attempt() < 3 ? new Verdict.Retry(Duration.ZERO) : Verdict.DONE);
    bus.send("q", message("t1", "a.b.op"));

    bus.consume("q", recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
    assertThat(recorder.attempts()).containsExactly(1, 2, 3);
  }

  @Test
  void consume_park_listsItWithCodeReasonAttemptsAndTime() {
    Recorder recorder =
        new Recorder(
            d ->
                d.attempt() == 1
                    ? new Verdict.Retry(Duration.ZERO)
                    : new Verdict.Park("CONTRACT", "no name"));
    Message task = message("t1", "a.b.op");
    bus.send("q", task);
    clock.advance(Duration.ofSeconds(5));

    bus.consume("q", recorder);

    await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == 1);
    Parked parked = bus.parked().get(0);
    assertThat(parked.queue()).isEqualTo("q");
    assertThat(parked.message()).isEqualTo(task);
    assertThat(parked.code()).isEqualTo("CONTRACT");
    assertThat(parked.reason()).isEqualTo("no name");
    assertThat(parked.attempts()).isEqualTo(2);
    assertThat(parked.at()).isEqualTo(Fixtures.START + 5_000);
    assertThat(bus.depth("q")).isZero();
  }

  @Test
  void parked_several_oldestFirst() {
    bus.consume("q", new Recorder(d -> new Verdict.Park("SYSTEM", d.message().id())));
    for (String id : new String[] {"first", "second", "third"}) {
      int before = bus.parked().size();
      bus.send("q", message(id, "a.b.op"));
      await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == before + 1);
      clock.advance(Duration.ofSeconds(1));
    }

    assertThat(bus.parked()).extracting(Parked::reason).containsExactly("first", "second", "third");
    assertThat(bus.parked()).extracting(Parked::at).isSorted();
  }

  @Test
  void replay_parked_isConsumedAgainWithAttemptGoingOn() {
    Recorder recorder =
        new Recorder(d -> d.attempt() == 1 ? new Verdict.Park("SYSTEM", "down") : Verdict.DONE);
    bus.send("q", message("t1", "a.b.op"));
    bus.consume("q", recorder);
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == 1);

    assertThat(bus.replay(bus.parked().get(0).id())).isTrue();

    await().atMost(Duration.ofSeconds(5)).until(() -> recorder.count() == 2);
    assertThat(recorder.attempts()).containsExactly(1, 2);
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 0);
    assertThat(bus.parked()).isEmpty();
  }

  @Test
  void replay_unknownId_returnsFalse() {
    assertThat(bus.replay("12345")).isFalse();
    assertThat(bus.replay("not a number")).isFalse();
  }

  @Test
  void replay_pendingMessage_returnsFalseAndChangesNothing() {
    bus.send("q", message("t1", "a.b.op"));
    long seq = Fixtures.column(dir, "q", "t1", "seq");

    assertThat(bus.replay(String.valueOf(seq))).isFalse();
    assertThat(bus.depth("q")).isEqualTo(1);
  }

  @Test
  void depth_countsPendingAndClaimed_excludesParkedAndOtherQueues() {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    bus.send("q", message("park-me", "a.b.op"));
    bus.send("q", message("hold-me", "a.b.op"));
    bus.send("q", message("later", "a.b.op"));
    bus.send("other", message("x", "a.b.op"));
    bus.consume(
        "q",
        d -> {
          if (d.message().id().equals("park-me")) return new Verdict.Park("SYSTEM", "no");
          if (d.message().id().equals("later")) return new Verdict.Retry(Duration.ofHours(1));
          return awaitQuietly(release) ? Verdict.DONE : new Verdict.Retry(Duration.ZERO);
        });
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.parked().size() == 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> dueAt("later") > Fixtures.START);

    assertThat(bus.depth("q")).isEqualTo(2); // "hold-me", claimed, and "later", not due
    release.countDown();
    await().atMost(Duration.ofSeconds(5)).until(() -> bus.depth("q") == 1);
  }

  @Test
  void declare_again_withMoreLabels_bindsAllAndKeepsMessages() {
    bus.declare("a", Set.of("x.y.created"));
    bus.publish(message("e1", "x.y.created"));

    bus.declare("a", Set.of("x.y.created", "x.y.deleted"));
    bus.declare("a", Set.of());
    bus.publish(message("e2", "x.y.deleted"));

    assertThat(bus.depth("a")).isEqualTo(2);
  }

  @Test
  void declare_blankQueue_isRefused() {
    assertThatThrownBy(() -> bus.declare(" ", Set.of("x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> bus.send("", message("t", "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void closedBus_anyCall_failsNamingTheFile() {
    bus.close();

    assertThatThrownBy(() -> bus.send("q", message("t1", "a.b.op")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(dir.resolve("bus.db").toString())
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> bus.consume("q", new Recorder()))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> bus.depth("q")).isInstanceOf(IllegalStateException.class);
    bus.close(); // twice is harmless
  }

  @Test
  void describe_namesTheFile() {
    assertThat(bus.describe()).contains("embedded").contains(dir.resolve("bus.db").toString());
  }

  private static boolean awaitQuietly(java.util.concurrent.CountDownLatch latch) {
    try {
      return latch.await(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private long dueAt(String id) {
    return Fixtures.column(dir, "q", id, "not_before");
  }
}
