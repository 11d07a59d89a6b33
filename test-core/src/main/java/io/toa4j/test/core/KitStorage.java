package io.toa4j.test.core;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Reading;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The storage of a context under test: the embedded SQLite storage, opened by the runtime as any
 * engine is and held here too, so the kit reads the records the context wrote from the very storage
 * it wrote them to. Every committed write is noted in {@link Causes} with the message that made it,
 * so that twice mode can name the operation behind a record that ends differently.
 *
 * <p>In crash mode it is where an outbox entry's crash falls between its publish and its marking
 * published: when {@link Repeats} picks the entry, the runtime's publisher has published it and
 * marks it published, and the kit keeps it to be {@linkplain #crashed() put back} — the state a
 * process that died before the mark leaves, once its claim has ended — which the kit does through
 * the runtime's redelivery when it next settles. One per context under test.
 */
final class KitStorage implements StorageProvider {
  /** The engine's name as the kit's builder states it. */
  static final String NAME = "toa-test";

  private final StorageProvider sqlite = new SqliteStorageProvider();
  private final Causes causes;
  private final Repeats repeats;
  private final AtomicReference<Storage> opened = new AtomicReference<>();

  /**
   * The record write behind each outbox entry committed, in words: {@code kit.orders 0c1d… at
   * VERSION 1}.
   */
  private final Map<String, String> writes = new ConcurrentHashMap<>();

  private final Queue<String> crashed = new ConcurrentLinkedQueue<>();

  /**
   * @param repeats which outbox entries are published again
   */
  KitStorage(Causes causes, Repeats repeats) {
    this.causes = causes;
    this.repeats = repeats;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Storage open(StorageSettings settings) {
    Storage storage = new Noted(sqlite.open(settings));
    opened.set(storage);
    return storage;
  }

  /** The store of a component, once the context has opened its storage. */
  Optional<Store> store(String component) {
    return Optional.ofNullable(opened.get()).map(s -> s.store(component));
  }

  /**
   * The outbox entries whose crash fell between their publish and their marking published since
   * last asked, by id, each once: published, and to be published again.
   */
  List<String> crashed() {
    List<String> ids = new ArrayList<>();
    for (String id; (id = crashed.poll()) != null; ) ids.add(id);
    return ids;
  }

  /** The SQLite storage, its stores noting their committed writes. */
  private final class Noted implements Storage {
    private final Storage storage;

    Noted(Storage storage) {
      this.storage = storage;
    }

    @Override
    public Store store(String component) {
      return new NotedStore(component, storage.store(component));
    }

    @Override
    public boolean transactional() {
      return storage.transactional();
    }

    @Override
    public String describe() {
      return storage.describe();
    }

    @Override
    public void close() {
      storage.close();
    }
  }

  /** One component's store: everything as SQLite does it, a committed write noted. */
  private final class NotedStore implements Store {
    private final String component;
    private final Store store;

    NotedStore(String component, Store store) {
      this.component = component;
      this.store = store;
    }

    @Override
    public Optional<StoredRecord> read(String id) {
      return store.read(id);
    }

    @Override
    public List<StoredRecord> find(Selection selection) {
      return store.find(selection);
    }

    @Override
    public boolean remove(String id, long version) {
      return store.remove(id, version);
    }

    @Override
    public Outcome commit(Write write) {
      Outcome outcome = store.commit(write);
      if (outcome == Outcome.COMMITTED) {
        causes.wrote(component, write.record());
        write
            .outbox()
            .ifPresent(
                e ->
                    writes.put(
                        e.id(),
                        component
                            + " "
                            + write.record().id()
                            + " at VERSION "
                            + write.record().version()));
      }
      return outcome;
    }

    @Override
    public Optional<InboxEntry> recorded(String identity, long now) {
      return store.recorded(identity, now);
    }

    @Override
    public Reading read(String id, String identity, long now) {
      return store.read(id, identity, now);
    }

    @Override
    public int purgeInbox(long now, int limit) {
      return store.purgeInbox(now, limit);
    }

    @Override
    public List<OutboxEntry> unpublished(int limit) {
      return store.unpublished(limit);
    }

    @Override
    public long unpublishedCount() {
      return store.unpublishedCount();
    }

    @Override
    public List<OutboxEntry> claim(int limit, long now, long until) {
      return store.claim(limit, now, until);
    }

    @Override
    public void published(Collection<String> ids, long at) {
      store.published(ids, at);
      for (String id : ids)
        if (repeats.beforeMarkedPublished(writes.getOrDefault(id, component + " entry " + id)))
          crashed.add(id);
    }

    @Override
    public int purgePublished(long before, int limit) {
      return store.purgePublished(before, limit);
    }

    @Override
    public List<RecentEntry> recent(int limit) {
      return store.recent(limit);
    }

    @Override
    public int republish(Collection<String> ids, long now) {
      return store.republish(ids, now);
    }

    @Override
    public void release(Collection<OutboxEntry> entries, long now) {
      store.release(entries, now);
    }
  }
}
