package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.Write;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two deliveries of one call racing on one record, placed so that both read it before either
 * commits, and the one that reached its commit first commits last: it loses the record's
 * compare-and-swap to its twin, and is answered with the twin's answer at once — no backoff, no
 * second run.
 */
class TwinRaceTest {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final String IDENTITY = "the-same-call";

  @TempDir Path directory;

  /** The embedded storage, holding the first commit of the twins until the second has committed. */
  static final class TwinsCommitInTurn implements StorageProvider {
    final AtomicInteger arrived = new AtomicInteger();
    final CountDownLatch secondCommitted = new CountDownLatch(1);

    @Override
    public String name() {
      return "twins-in-turn";
    }

    @Override
    public Storage open(StorageSettings settings) {
      Storage sqlite = new SqliteStorageProvider().open(settings);
      return new Storage() {
        @Override
        public Store store(String component) {
          Store store = sqlite.store(component);
          return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, args) -> {
            boolean twin = method.getName().equals("commit")
                && args[0] instanceof Write write
                && write.inbox().filter(e -> e.identity().equals(IDENTITY)).isPresent();
            if (twin && arrived.incrementAndGet() == 1) {
              assertThat(secondCommitted.await(30, TimeUnit.SECONDS)).as("the twin reached its commit").isTrue();
            }
            try {
              return method.invoke(store, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            } finally {
              if (twin && arrived.get() == 2) secondCommitted.countDown();
            }
          });
        }

        @Override
        public boolean transactional() {
          return sqlite.transactional();
        }

        @Override
        public String describe() {
          return "the embedded storage, twins committing in turn";
        }

        @Override
        public void close() {
          sqlite.close();
        }
      };
    }
  }

  @Test
  void twinThatLosesTheRecordsCompareAndSwap_isAnsweredWithTheWinnersAnswer_withoutRetrying() throws Exception {
    TwinsCommitInTurn storage = new TwinsCommitInTurn();
    AtomicInteger backoffs = new AtomicInteger();
    Options options = Options.defaults().withSleeper(millis -> backoffs.incrementAndGet());
    try (Toa app = Toa.builder()
        .directory(Fixtures.ledger(directory, "true"))
        .engine(storage)
        .storage(storage.name(), Map.of())
        .options(options)
        .build()) {
      app.call("test.ledger.add", Request.of(ACCOUNT, Map.of("amount", 1, "mode", "ok"))); // the record exists
      Request add = Request.of(ACCOUNT, Map.of("amount", 5000, "mode", "ok"));

      List<CompletableFuture<Reply>> twins = List.of(
          CompletableFuture.supplyAsync(() -> app.call("test.ledger.add", add, IDENTITY)),
          CompletableFuture.supplyAsync(() -> app.call("test.ledger.add", add, IDENTITY)));
      Reply one = twins.get(0).get(60, TimeUnit.SECONDS);
      Reply other = twins.get(1).get(60, TimeUnit.SECONDS);

      assertThat(storage.arrived).as("both ran and reached their commit").hasValue(2);
      assertThat(one).isEqualTo(other);
      assertThat(backoffs).as("backoffs slept").hasValue(0);
      assertThat(app.metrics().find("toa.inbox.twins").counter().count()).isEqualTo(1);
      assertThat(TransitionTest.output(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", 5001L)
          .containsEntry("VERSION", 2L);
    }
  }
}
