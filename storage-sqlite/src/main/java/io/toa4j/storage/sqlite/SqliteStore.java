package io.toa4j.storage.sqlite;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.OwnerOnly;
import io.toa4j.spi.Reading;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.sql.Dialect;
import io.toa4j.sql.Queries;
import io.toa4j.sqlite.GroupCommit;
import io.toa4j.sqlite.NativeLibrary;
import io.toa4j.sqlite.Readers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;

/**
 * One component's records in one SQLite file.
 *
 * <p>Writes go through a single connection, one batch at a time: SQLite has one writer per file
 * anyway, and serialising in the process spares the busy-retry loop. Writes that wait for the
 * writer are committed together, one fsync for all ({@link GroupCommit}). Reads use a small pool of
 * their own connections ({@link Readers}), which WAL lets run beside the writer: a read waits for a
 * free one at most {@link #READER_WAIT}, then fails naming the file and the numbers. Other
 * processes may open the same file; the busy timeout covers them. Closing leaves no connection
 * open: the readers in use are closed as their reads end, waited for at most {@link #CLOSE_WAIT}; a
 * store that fails to open closes what it opened.
 */
final class SqliteStore implements Store {
  private static final int READERS = 4;

  /** The longest a read waits for a reader: as long as SQLite's busy timeout. */
  static final Duration READER_WAIT = Duration.ofSeconds(30);

  /** The longest closing waits for the reads in progress. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /**
   * The WAL size, in pages, at which a commit checkpoints by itself, under the writer: a backstop
   * for when {@link #checkpoint()} is not called often enough. SQLite's default is 1,000.
   */
  private static final int BACKSTOP_PAGES = 20_000;

  /** The most writes one transaction commits together. */
  private static final int BATCH = 64;

  private static final Logger LOG = LoggerFactory.getLogger(SqliteStore.class);

  /** The files SQLite keeps beside a database in WAL mode. */
  static final List<String> COMPANIONS = List.of("-wal", "-shm");

  private final Path file;
  private final Connection writer;
  private final Connection checkpointer;
  private final GroupCommit commits;
  private final Readers readers;

  SqliteStore(Path file) {
    this.file = file;
    // SQLite makes the -wal and -shm files with the database file's mode (on unix), so making the
    // database file first, 0600, makes them 0600 too; SQLite takes an empty file for an empty
    // database.
    OwnerOnly.file(file, LOG::warn);
    NativeLibrary.prepareIn(file.toAbsolutePath().getParent());
    List<Connection> opened = new ArrayList<>();
    try {
      this.writer = opened(opened, open(file, false));
      for (String companion : COMPANIONS)
        OwnerOnly.check(file.resolveSibling(file.getFileName() + companion), LOG::warn);
      Migrations.apply(writer, file);
      try (Statement s = writer.createStatement()) {
        s.execute("PRAGMA wal_autocheckpoint = " + BACKSTOP_PAGES);
      }
      this.commits =
          new GroupCommit(
              writer,
              BATCH,
              () ->
                  new IllegalStateException(
                      "SQLite could not write in " + file + ": the store is closed"));
      this.checkpointer = opened(opened, open(file, false));
      List<Connection> reading = new ArrayList<>();
      for (int i = 0; i < READERS; i++) reading.add(opened(opened, open(file, true)));
      this.readers =
          new Readers(
              file,
              reading,
              READER_WAIT,
              CLOSE_WAIT,
              () ->
                  new IllegalStateException(
                      "SQLite could not read in " + file + ": the store is closed"));
    } catch (SQLException e) {
      opened.forEach(Readers::closeQuietly); // a store that cannot open holds no file open
      throw failure("open", e);
    } catch (RuntimeException | Error e) {
      opened.forEach(Readers::closeQuietly);
      throw e;
    }
  }

  private static Connection opened(List<Connection> opened, Connection c) {
    opened.add(c);
    return c;
  }

  static Connection open(Path file, boolean readOnly) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(30_000);
    config.setTransactionMode(
        SQLiteConfig.TransactionMode.IMMEDIATE); // the migrations' transaction
    config.setReadOnly(readOnly);
    return config.createConnection("jdbc:sqlite:" + file);
  }

  @Override
  public Optional<StoredRecord> read(String id) {
    return withReader(
        c -> {
          PreparedStatement s =
              cached(c, "SELECT id, version, created, updated, state FROM records WHERE id = ?");
          s.setString(1, id);
          try (ResultSet r = s.executeQuery()) {
            return r.next() ? Optional.of(record(r)) : Optional.empty();
          }
        });
  }

  @Override
  public List<StoredRecord> find(Selection selection) {
    List<Object> parameters = new ArrayList<>();
    String sql =
        "SELECT id, version, created, updated, state FROM records"
            + Queries.selection(selection, SQL, parameters);
    return withReader(
        c -> {
          // a plain page is prepared once; a selection's text has the shape its caller gave it,
          // so it is prepared for this read only and the cache stays bounded
          boolean plain = selection.plain();
          PreparedStatement s = plain ? cached(c, sql) : c.prepareStatement(sql);
          try {
            for (int i = 0; i < parameters.size(); i++) s.setObject(i + 1, parameters.get(i));
            try (ResultSet r = s.executeQuery()) {
              List<StoredRecord> page = new ArrayList<>();
              while (r.next()) page.add(record(r));
              return page;
            }
          } finally {
            if (!plain) s.close();
          }
        });
  }

  private static final Dialect SQL = new Sql();

  /**
   * Comparisons in SQLite's terms: {@code json_extract} answers a JSON number as a number, a string
   * as a text, a boolean as 1 or 0, and a missing property or null as NULL, which meets only {@code
   * IS NOT} and the NULL arm of {@code NOT IN}.
   */
  private static final class Sql implements Dialect {
    /**
     * A property's value in SQL: its column, or its value in the state, the path as a parameter.
     */
    @Override
    public String field(Selection.Field field, List<Object> parameters) {
      if (field.column().isPresent()) return field.column().get();
      parameters.add("$.\"" + field.name().replace("\"", "\\\"") + "\"");
      return "json_extract(state, ?)";
    }

    /** A value as SQLite compares it with what {@code json_extract} answers. */
    @Override
    public Object value(Object value) {
      if (value instanceof Boolean b) return b ? 1 : 0;
      if (value instanceof java.math.BigDecimal d) {
        try {
          return d.longValueExact();
        } catch (ArithmeticException e) {
          return d.doubleValue();
        }
      }
      return value;
    }

    @Override
    public String notEqual(String expression) {
      return expression + " IS NOT ?";
    }
  }

  @Override
  public boolean remove(String id, long version) {
    return write(
        "remove record " + id,
        c -> {
          PreparedStatement s = cached(writer, "DELETE FROM records WHERE id = ? AND version = ?");
          s.setString(1, id);
          s.setLong(2, version);
          return s.executeUpdate() == 1;
        });
  }

  @Override
  public Outcome commit(Write write) {
    StoredRecord next = write.record();
    String state = next.state().text();
    Optional<String> reply = write.inbox().map(entry -> entry.reply().orElseThrow().text());
    Optional<Texts> outbox =
        write
            .outbox()
            .map(
                entry ->
                    new Texts(
                        change(entry),
                        entry.tasks().map(Json::text).orElse(null),
                        entry.trace().map(Json::text).orElse(null)));
    return write(
        "commit record " + next.id() + " at version " + next.version(),
        c -> {
          Outcome outcome =
              write.expectedVersion() == 0
                  ? insert(next, state)
                  : update(write.expectedVersion(), next, state);
          if (outcome == Outcome.COMMITTED
              && reply.isPresent()
              && !remember(write.inbox().get(), reply.get(), next.updated())) {
            outcome = Outcome.DUPLICATE;
          }
          if (outcome == Outcome.COMMITTED && outbox.isPresent())
            insert(write.outbox().get(), outbox.get());
          return outcome;
        },
        outcome -> outcome == Outcome.COMMITTED);
  }

  /**
   * Records a call's answer, replacing a forgotten entry of the same identity.
   *
   * @return false when the identity is recorded and not forgotten: a twin committed first
   */
  private boolean remember(InboxEntry entry, String reply, long now) throws SQLException {
    PreparedStatement s =
        cached(
            writer,
            "INSERT INTO inbox (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (identity) DO UPDATE SET reply = excluded.reply, expires = excluded.expires,"
                + " fingerprint = excluded.fingerprint, answered = excluded.answered, forgotten = excluded.forgotten,"
                + " record = excluded.record, due = excluded.due"
                + " WHERE inbox.forgotten <= ?");
    s.setString(1, entry.identity());
    s.setString(2, reply);
    s.setLong(3, entry.expires());
    s.setString(4, entry.fingerprint().orElse(null));
    s.setLong(5, entry.answered());
    s.setLong(6, entry.forgotten());
    s.setString(7, entry.record().orElse(null));
    s.setLong(8, entry.expires());
    s.setLong(9, now);
    return s.executeUpdate() == 1;
  }

  @Override
  public Optional<InboxEntry> recorded(String identity, long now) {
    return withReader(
        c -> {
          PreparedStatement s =
              cached(
                  c,
                  "SELECT reply, expires, fingerprint, answered, forgotten, record FROM inbox WHERE identity = ? AND forgotten > ?");
          s.setString(1, identity);
          s.setLong(2, now);
          try (ResultSet r = s.executeQuery()) {
            return r.next() ? Optional.of(entry(r, 1, identity, now)) : Optional.empty();
          }
        });
  }

  /** The record and the call's inbox entry in one statement on one reader: a row joining both. */
  @Override
  public Reading read(String id, String identity, long now) {
    return withReader(
        c -> {
          PreparedStatement s =
              cached(
                  c,
                  "SELECT r.version, r.created, r.updated, r.state,"
                      + " i.reply, i.expires, i.fingerprint, i.answered, i.forgotten, i.record, i.identity FROM (VALUES (1)) AS one"
                      + " LEFT JOIN records r ON r.id = ? LEFT JOIN inbox i ON i.identity = ? AND i.forgotten > ?");
          s.setString(1, id);
          s.setString(2, identity);
          s.setLong(3, now);
          try (ResultSet r = s.executeQuery()) {
            r.next();
            String state = r.getString(4);
            return new Reading(
                r.getString(11) == null
                    ? Optional.empty()
                    : Optional.of(entry(r, 5, identity, now)),
                state == null
                    ? Optional.empty()
                    : Optional.of(
                        new StoredRecord(
                            id, r.getLong(1), r.getLong(2), r.getLong(3), new Json(state))));
          }
        });
  }

  /** The inbox entry in the row's columns from {@code at} on, as answered at {@code now}. */
  private static InboxEntry entry(ResultSet r, int at, String identity, long now)
      throws SQLException {
    String reply = r.getString(at);
    return new InboxEntry(
            identity,
            Optional.ofNullable(reply).map(Json::new),
            r.getLong(at + 1),
            Optional.ofNullable(r.getString(at + 2)),
            r.getLong(at + 3),
            r.getLong(at + 4),
            Optional.ofNullable(r.getString(at + 5)))
        .at(now);
  }

  @Override
  public int purgeInbox(long now, int limit) {
    return write(
        "purge expired inbox entries",
        c -> {
          PreparedStatement forget =
              cached(
                  writer,
                  "DELETE FROM inbox WHERE identity IN (SELECT identity FROM inbox WHERE due <= ? AND forgotten <= ? LIMIT ?)");
          forget.setLong(1, now);
          forget.setLong(2, now);
          forget.setInt(3, limit);
          int removed = forget.executeUpdate();
          PreparedStatement expire =
              cached(
                  writer,
                  "UPDATE inbox SET reply = NULL, due = forgotten"
                      + " WHERE identity IN (SELECT identity FROM inbox WHERE due <= ? AND forgotten > ? AND reply IS NOT NULL LIMIT ?)");
          expire.setLong(1, now);
          expire.setLong(2, now);
          expire.setInt(3, limit);
          return removed + expire.executeUpdate();
        });
  }

  /** How many inbox entries the file holds, expired or not: for the tests of the purge. */
  long inboxSize() {
    return withReader(
        c -> {
          PreparedStatement s = cached(c, "SELECT count(*) FROM inbox");
          try (ResultSet r = s.executeQuery()) {
            return r.next() ? r.getLong(1) : 0L;
          }
        });
  }

  private Outcome insert(StoredRecord next, String state) throws SQLException {
    try {
      PreparedStatement s =
          cached(
              writer,
              "INSERT INTO records (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?)");
      s.setString(1, next.id());
      s.setLong(2, next.version());
      s.setLong(3, next.created());
      s.setLong(4, next.updated());
      s.setString(5, state);
      s.executeUpdate();
      return Outcome.COMMITTED;
    } catch (SQLException e) {
      if (isConstraint(e)) return Outcome.CONFLICT;
      throw e;
    }
  }

  private Outcome update(long expected, StoredRecord next, String state) throws SQLException {
    PreparedStatement s =
        cached(
            writer,
            "UPDATE records SET version = ?, updated = ?, state = ? WHERE id = ? AND version = ?");
    s.setLong(1, next.version());
    s.setLong(2, next.updated());
    s.setString(3, state);
    s.setString(4, next.id());
    s.setLong(5, expected);
    return s.executeUpdate() == 1 ? Outcome.COMMITTED : Outcome.CONFLICT;
  }

  /**
   * An outbox entry's JSON columns: its change, its tasks and its trace context ({@code null} for
   * none).
   */
  private record Texts(String change, String tasks, String trace) {}

  /** The change as stored: its JSON, or the JSON text null for an entry that carries tasks only. */
  private static String change(OutboxEntry entry) {
    return entry.change().map(Json::text).orElse("null");
  }

  private void insert(OutboxEntry entry, Texts texts) throws SQLException {
    PreparedStatement s =
        cached(
            writer,
            "INSERT INTO outbox (id, created, change, claimed_until, tasks, trace) VALUES (?, ?, ?, ?, ?, ?)");
    s.setString(1, entry.id());
    s.setLong(2, entry.created());
    s.setString(3, texts.change());
    s.setLong(4, entry.claimedUntil());
    s.setString(5, texts.tasks());
    s.setString(6, texts.trace());
    s.executeUpdate();
  }

  @Override
  public List<OutboxEntry> unpublished(int limit) {
    return withReader(
        c -> {
          PreparedStatement s =
              cached(
                  c,
                  "SELECT id, created, change, claimed_until, tasks, trace FROM outbox WHERE published IS NULL ORDER BY id LIMIT ?");
          s.setInt(1, limit);
          return entries(s);
        });
  }

  @Override
  public long unpublishedCount() {
    return withReader(
        c -> {
          PreparedStatement s = cached(c, "SELECT count(*) FROM outbox WHERE published IS NULL");
          try (ResultSet r = s.executeQuery()) {
            return r.next() ? r.getLong(1) : 0L;
          }
        });
  }

  @Override
  public List<OutboxEntry> claim(int limit, long now, long until) {
    return write(
        "claim outbox entries",
        c -> {
          PreparedStatement s =
              cached(
                  writer,
                  "UPDATE outbox SET claimed_until = ? WHERE id IN"
                      + " (SELECT id FROM outbox WHERE published IS NULL AND claimed_until <= ? ORDER BY id LIMIT ?)"
                      + " RETURNING id, created, change, claimed_until, tasks, trace");
          s.setLong(1, until);
          s.setLong(2, now);
          s.setInt(3, limit);
          List<OutboxEntry> entries = entries(s);
          entries.sort(java.util.Comparator.comparing(OutboxEntry::id));
          return entries;
        });
  }

  private static List<OutboxEntry> entries(PreparedStatement s) throws SQLException {
    try (ResultSet r = s.executeQuery()) {
      List<OutboxEntry> entries = new ArrayList<>();
      while (r.next()) entries.add(entry(r));
      return entries;
    }
  }

  /** The entry in the first six columns: id, created, change, claimed_until, tasks, trace. */
  private static OutboxEntry entry(ResultSet r) throws SQLException {
    String change = r.getString(3); // the text null: an entry that carries tasks only
    Optional<Json> fact = change.equals("null") ? Optional.empty() : Optional.of(new Json(change));
    return new OutboxEntry(
        r.getString(1),
        r.getLong(2),
        fact,
        Optional.ofNullable(r.getString(5)).map(Json::new),
        r.getLong(4),
        Optional.ofNullable(r.getString(6)).map(Json::new));
  }

  @Override
  public List<RecentEntry> recent(int limit) {
    return withReader(
        c -> {
          PreparedStatement s =
              cached(
                  c,
                  "SELECT id, created, change, claimed_until, tasks, trace, published FROM outbox ORDER BY id DESC LIMIT ?");
          s.setInt(1, limit);
          try (ResultSet r = s.executeQuery()) {
            List<RecentEntry> entries = new ArrayList<>();
            while (r.next()) {
              long published = r.getLong(7);
              OptionalLong marked = r.wasNull() ? OptionalLong.empty() : OptionalLong.of(published);
              entries.add(new RecentEntry(entry(r), marked));
            }
            return entries;
          }
        });
  }

  @Override
  public void release(Collection<OutboxEntry> entries, long now) {
    if (entries.isEmpty()) return;
    write(
        "give back outbox claims",
        c -> {
          PreparedStatement s =
              cached(
                  writer,
                  "UPDATE outbox SET claimed_until = ? WHERE id = ? AND claimed_until = ? AND published IS NULL");
          for (OutboxEntry entry : entries) {
            s.setLong(1, now);
            s.setString(2, entry.id());
            s.setLong(3, entry.claimedUntil());
            s.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public int republish(Collection<String> ids, long now) {
    if (ids.isEmpty()) return 0;
    return write(
        "mark outbox entries for publishing again",
        c -> {
          // an unpublished entry keeps its claim: whoever holds it publishes it anyway
          PreparedStatement s =
              cached(
                  writer,
                  "UPDATE outbox SET claimed_until = CASE WHEN published IS NULL THEN claimed_until ELSE ? END, published = NULL"
                      + " WHERE id = ?");
          int known = 0;
          for (String id : ids) {
            s.setLong(1, now);
            s.setString(2, id);
            known += s.executeUpdate();
          }
          return known;
        });
  }

  @Override
  public void published(Collection<String> ids, long at) {
    if (ids.isEmpty()) return;
    write(
        "mark outbox entries published",
        c -> {
          PreparedStatement s =
              cached(writer, "UPDATE outbox SET published = ? WHERE id = ? AND published IS NULL");
          for (String id : ids) {
            s.setLong(1, at);
            s.setString(2, id);
            s.addBatch();
          }
          s.executeBatch();
          return null;
        });
  }

  @Override
  public int purgePublished(long before, int limit) {
    return write(
        "purge published outbox entries",
        c -> {
          PreparedStatement s =
              cached(
                  writer,
                  "DELETE FROM outbox WHERE id IN"
                      + " (SELECT id FROM outbox WHERE published IS NOT NULL AND published < ? LIMIT ?)");
          s.setLong(1, before);
          s.setInt(2, limit);
          return s.executeUpdate();
        });
  }

  /** Runs statements on the writer in one transaction. */
  private <T> T write(String what, Query<T> statements) {
    return write(what, statements, result -> true);
  }

  /**
   * Runs statements on the writer, kept only when {@code keep} says so, and answers once they are
   * durable: committed together with the writes that waited beside them ({@link GroupCommit}).
   */
  private <T> T write(String what, Query<T> statements, Predicate<T> keep) {
    try {
      return commits.write(statements::run, keep);
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /**
   * The statement prepared for this SQL on this connection, prepared once and kept (SQLite compiles
   * a statement at every prepare), its parameters cleared: on a reader, only inside {@link
   * #withReader}, on the connection it gave ({@link Readers#prepared}); on the writer, only inside
   * a write's statements ({@link GroupCommit#prepared}). Either closes them all after a use that
   * did not return, and prepares each again when next asked for.
   */
  private PreparedStatement cached(Connection c, String sql) throws SQLException {
    PreparedStatement s = c == writer ? commits.prepared(sql) : readers.prepared(c, sql);
    s.clearParameters();
    return s;
  }

  private static boolean isConstraint(SQLException e) {
    return e.getErrorCode() == SQLiteErrorCode.SQLITE_CONSTRAINT.code;
  }

  private interface Query<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T withReader(Query<T> query) {
    try {
      return readers.read(query::run);
    } catch (SQLException e) {
      throw failure("read", e);
    }
  }

  private static StoredRecord record(ResultSet r) throws SQLException {
    return new StoredRecord(
        r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4), new Json(r.getString(5)));
  }

  private IllegalStateException failure(String what, SQLException e) {
    return new IllegalStateException(
        "SQLite could not " + what + " in " + file + ": " + e.getMessage(), e);
  }

  /**
   * Copies committed pages from the WAL into the database file, as far as readers allow, on a
   * connection of its own: beside the writer rather than inside a commit, which would hold every
   * waiting write for the copy and the file's fsync. Called by the storage in the background.
   */
  void checkpoint() throws SQLException {
    synchronized (checkpointer) {
      try (Statement s = checkpointer.createStatement()) {
        s.execute("PRAGMA wal_checkpoint(PASSIVE)");
      }
    }
  }

  void close() {
    try {
      commits.close();
    } finally {
      synchronized (checkpointer) {
        Readers.closeQuietly(checkpointer);
      }
      Readers.closeQuietly(writer);
      int left = readers.close();
      if (left > 0) {
        LOG.warn(
            "{} readers of {} were still in use {} ms after the store closed; each is closed when its read ends",
            left,
            file,
            CLOSE_WAIT.toMillis());
      }
    }
  }
}
