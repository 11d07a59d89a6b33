package io.toa4j.storage.postgres;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Reading;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.sql.Connections;
import io.toa4j.sql.Dialect;
import io.toa4j.sql.Queries;
import io.toa4j.sql.Rows;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One component's records, outbox and inbox, in the tables of its own schema.
 *
 * <p>Each method takes a connection from the storage's pool for its duration. A commit is first one
 * statement in a transaction of its own, one round trip: the record's compare-and-swap ({@code
 * UPDATE ... WHERE version = ?}, or an {@code INSERT} that does nothing when the id exists), at
 * READ COMMITTED, takes the row lock, so a racing writer waits, re-reads the row and finds the
 * version moved; the inbox row and the outbox row (one row, whatever number of tasks it carries:
 * they are one {@code jsonb} column) are inserted from the row it wrote, so a lost compare-and-swap
 * inserts neither. An inbox row already there for the call fails the statement whole (a unique
 * violation): then, and only then, the commit is the transaction of three statements (the inbox row
 * an upsert that replaces only a forgotten entry) whose counts decide between COMMIT and ROLLBACK —
 * the twin's answer stands, or a forgotten entry is replaced. Anything short of COMMITTED writes
 * nothing. Thread-safe.
 */
final class PostgresStore implements Store {
  /** What PostgreSQL answers an insert whose key is taken. */
  private static final String UNIQUE_VIOLATION = "23505";

  private final Schema schema;
  private final Connections pool;
  private final Failures failures;
  private final String read;
  private final String select;
  private final String insert;
  private final String update;
  private final String remove;
  private final String remember;
  private final String enqueue;
  private final String answer;
  private final String readAnswered;
  private final String purgeInbox;
  private final String inboxSize;
  private final String unpublishedCount;
  private final String unpublished;
  private final String claim;
  private final String published;
  private final String purgePublished;
  private final String recent;
  private final String republish;
  private final String release;

  /**
   * The joined statements of each shape of commit ({@link #shape}), made once: the driver's cache
   * of parsed statements is a map keyed by their text, and a text made anew for each commit is
   * hashed whole each time.
   */
  private final String[] commits = new String[8];

  /** Each shape's commit as one statement ({@link #alone}), the counterpart of {@link #commits}. */
  private final String[] alone = new String[8];

  PostgresStore(Schema schema, Connections pool, Failures failures) {
    this.schema = schema;
    this.pool = pool;
    this.failures = failures;
    String records = schema.table("records");
    String outbox = schema.table("outbox");
    String inbox = schema.table("inbox");
    this.read = "SELECT id, version, created, updated, state FROM " + records + " WHERE id = ?";
    this.select = "SELECT id, version, created, updated, state FROM " + records;
    this.insert =
        "INSERT INTO "
            + records
            + " (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?::jsonb)"
            + " ON CONFLICT (id) DO NOTHING";
    this.update =
        "UPDATE "
            + records
            + " SET version = ?, updated = ?, state = ?::jsonb WHERE id = ? AND version = ?";
    this.remove = "DELETE FROM " + records + " WHERE id = ? AND version = ?";
    this.remember =
        "INSERT INTO "
            + inbox
            + " AS inbox (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
            + " VALUES (?, ?::jsonb, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (identity) DO UPDATE SET reply = excluded.reply, expires = excluded.expires,"
            + " fingerprint = excluded.fingerprint, answered = excluded.answered, forgotten = excluded.forgotten,"
            + " record = excluded.record, due = excluded.due"
            + " WHERE inbox.forgotten <= ?";
    this.enqueue =
        "INSERT INTO "
            + outbox
            + " (id, created, change, claimed_until, tasks, trace) VALUES (?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb)";
    this.answer =
        "SELECT reply, expires, fingerprint, answered, forgotten, record FROM "
            + inbox
            + " WHERE identity = ? AND forgotten > ?";
    // one row always: the record's columns null when there is none, the answer's when it is not
    // recorded
    this.readAnswered =
        "SELECT r.id, r.version, r.created, r.updated, r.state,"
            + " i.reply, i.expires, i.fingerprint, i.answered, i.forgotten, i.record, i.identity FROM (VALUES (1)) AS one"
            + " LEFT JOIN "
            + records
            + " r ON r.id = ? LEFT JOIN "
            + inbox
            + " i ON i.identity = ? AND i.forgotten > ?";
    // one statement: the entries forgotten removed, the others due dropping their expired answer
    this.purgeInbox =
        "WITH forgotten AS (DELETE FROM "
            + inbox
            + " WHERE identity IN (SELECT identity FROM "
            + inbox
            + " WHERE due <= ? AND forgotten <= ? LIMIT ?) RETURNING 1),"
            + " expired AS (UPDATE "
            + inbox
            + " SET reply = NULL, due = forgotten WHERE identity IN (SELECT identity FROM "
            + inbox
            + " WHERE due <= ? AND forgotten > ? AND reply IS NOT NULL LIMIT ?) RETURNING 1)"
            + " SELECT (SELECT count(*) FROM forgotten) + (SELECT count(*) FROM expired)";
    this.inboxSize = "SELECT count(*) FROM " + inbox;
    this.unpublishedCount = "SELECT count(*) FROM " + outbox + " WHERE published IS NULL";
    this.unpublished =
        "SELECT id, created, change::text, claimed_until, tasks::text, trace::text FROM "
            + outbox
            + " WHERE published IS NULL ORDER BY id LIMIT ?";
    // SKIP LOCKED: two sweeps running at once take disjoint entries instead of waiting on each
    // other.
    this.claim =
        "UPDATE "
            + outbox
            + " SET claimed_until = ? WHERE id IN (SELECT id FROM "
            + outbox
            + " WHERE published IS NULL AND claimed_until <= ? ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)"
            + " RETURNING id, created, change::text, claimed_until, tasks::text, trace::text";
    this.published =
        "UPDATE " + outbox + " SET published = ? WHERE id = ANY (?) AND published IS NULL";
    this.recent =
        "SELECT id, created, change::text, claimed_until, tasks::text, trace::text, published FROM "
            + outbox
            + " ORDER BY id DESC LIMIT ?";
    // an unpublished entry keeps its claim: whoever holds it publishes it anyway
    this.republish =
        "UPDATE "
            + outbox
            + " SET claimed_until = CASE WHEN published IS NULL THEN claimed_until ELSE ? END, published = NULL"
            + " WHERE id = ANY (?)";
    this.release =
        "UPDATE "
            + outbox
            + " SET claimed_until = ? FROM unnest(?::text[], ?::bigint[]) AS held (id, until)"
            + " WHERE "
            + outbox
            + ".id = held.id AND claimed_until = held.until AND published IS NULL";
    this.purgePublished =
        "DELETE FROM "
            + outbox
            + " WHERE id IN (SELECT id FROM "
            + outbox
            + " WHERE published IS NOT NULL AND published < ? LIMIT ?)";
    // the inbox and outbox rows inserted from the row the compare-and-swap wrote: none when it
    // wrote none
    String answered =
        "INSERT INTO "
            + inbox
            + " (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
            + " SELECT ?, ?::jsonb, ?, ?, ?, ?, ?, ? FROM written";
    String leaving =
        "INSERT INTO "
            + outbox
            + " (id, created, change, claimed_until, tasks, trace)"
            + " SELECT ?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb FROM written";
    for (int shape = 0; shape < commits.length; shape++) {
      commits[shape] =
          (shape % 2 == 1 ? insert : update)
              + (shape / 2 % 2 == 1 ? "; " + remember : "")
              + (shape / 4 == 1 ? "; " + enqueue : "");
      alone[shape] =
          "WITH written AS ("
              + (shape % 2 == 1 ? insert : update)
              + " RETURNING 1)"
              + (shape / 2 % 2 == 1 ? ", answered AS (" + answered + ")" : "")
              + (shape / 4 == 1 ? ", leaving AS (" + leaving + ")" : "")
              + " SELECT count(*) FROM written";
    }
  }

  @Override
  public Optional<StoredRecord> read(String id) {
    return run(
        () -> "read record " + id,
        c -> {
          try (PreparedStatement s = c.prepareStatement(read)) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
              return r.next() ? Optional.of(Rows.record(r)) : Optional.empty();
            }
          }
        });
  }

  /**
   * The record and the call's inbox entry in one round trip: one query, joining both to one row.
   */
  @Override
  public Reading read(String id, String identity, long now) {
    return run(
        () -> "read record " + id + " and the answer to call " + identity,
        c -> {
          try (PreparedStatement s = c.prepareStatement(readAnswered)) {
            s.setString(1, id);
            s.setString(2, identity);
            s.setLong(3, now);
            try (ResultSet r = s.executeQuery()) {
              r.next();
              Optional<StoredRecord> record =
                  r.getString(1) == null ? Optional.empty() : Optional.of(Rows.record(r));
              Optional<InboxEntry> answer =
                  r.getString(12) == null
                      ? Optional.empty()
                      : Optional.of(Rows.inboxEntry(r, 6, identity, now));
              return new Reading(answer, record);
            }
          }
        });
  }

  @Override
  public List<StoredRecord> find(Selection selection) {
    List<Object> parameters = new ArrayList<>();
    String text = select + Queries.selection(selection, SQL, parameters);
    return run(
        "read records",
        c -> {
          try (PreparedStatement s = c.prepareStatement(text)) {
            for (int i = 0; i < parameters.size(); i++) Rows.bind(s, i + 1, parameters.get(i));
            try (ResultSet r = s.executeQuery()) {
              List<StoredRecord> records = new ArrayList<>();
              while (r.next()) records.add(Rows.record(r));
              return records;
            }
          }
        });
  }

  private static final Dialect SQL = new Sql();

  /**
   * Comparisons in PostgreSQL's terms: a property of the state read as text ({@code ->>}) and cast
   * to its kind, texts compared by code point ({@code COLLATE "C"}, as SQLite compares them); a
   * missing property or null is NULL, which meets only {@code IS DISTINCT FROM} and the NULL arm of
   * {@code NOT IN}.
   */
  private static final class Sql implements Dialect {
    /**
     * A property's value in SQL, of its kind: its column, or its value in the state, the key as a
     * parameter.
     */
    @Override
    public String field(Selection.Field field, List<Object> parameters) {
      String value =
          field
              .column()
              .orElseGet(
                  () -> {
                    parameters.add(field.name());
                    return "(state ->> ?)";
                  });
      return switch (field.kind()) {
        case TEXT -> value + " COLLATE \"C\"";
        case NUMBER -> field.column().isPresent() ? value : value + "::numeric";
        case BOOLEAN -> value + "::boolean";
      };
    }

    /**
     * A value as a parameter: a number as a decimal, so that a whole number and a fraction compare
     * by value.
     */
    @Override
    public Object value(Object value) {
      return value instanceof Number n && !(value instanceof BigDecimal)
          ? new BigDecimal(n.toString())
          : value;
    }
  }

  @Override
  public boolean remove(String id, long version) {
    return run(
        () -> "remove record " + id,
        c -> {
          try (PreparedStatement s = c.prepareStatement(remove)) {
            s.setString(1, id);
            s.setLong(2, version);
            return s.executeUpdate() == 1;
          }
        });
  }

  @Override
  public Outcome commit(Write write) {
    StoredRecord next = write.record();
    return run(
        () -> "commit record " + next.id() + " at version " + next.version(),
        c -> {
          Optional<Outcome> alone = alone(c, write);
          return alone.isPresent() ? alone.get() : transaction(c, write);
        });
  }

  /**
   * The commit as one statement in a transaction of its own; empty when it wrote nothing because an
   * inbox row is there for the call, which only the transaction of three statements tells apart
   * (the twin's answer, or an entry forgotten and to be replaced).
   */
  private Optional<Outcome> alone(Connection c, Write write) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(alone[shape(write)])) {
      bind(s, write, false);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return Optional.of(r.getLong(1) == 1 ? Outcome.COMMITTED : Outcome.CONFLICT);
      }
    } catch (SQLException e) {
      if (Failures.isLostRace(e)) return Optional.of(Outcome.CONFLICT);
      if (write.inbox().isPresent() && UNIQUE_VIOLATION.equals(e.getSQLState()))
        return Optional.empty();
      throw e;
    }
  }

  /**
   * The commit as one transaction of three statements, sent together in one round trip: the
   * record's compare-and-swap, then the inbox row as an upsert that replaces only a forgotten
   * entry, then the outbox row. Their counts decide between COMMIT and ROLLBACK; whatever ran after
   * a statement that could not be is rolled back with the rest.
   */
  private Outcome transaction(Connection c, Write write) throws SQLException {
    c.setAutoCommit(false);
    try {
      Outcome outcome = apply(c, write);
      if (outcome == Outcome.COMMITTED) c.commit();
      else c.rollback();
      return outcome;
    } catch (SQLException e) {
      c.rollback();
      // A serialization failure or deadlock means another writer got there: a lost race.
      if (Failures.isLostRace(e)) return Outcome.CONFLICT;
      throw e;
    } catch (RuntimeException | Error e) {
      // an Error too: rolled back here when it can be, and the connection is discarded by the
      // pool's
      // gate all the same (the exchange may have stopped halfway); a failed rollback must not hide
      // the Error behind a SQLException, after which the connection would go back to the pool
      try {
        c.rollback();
      } catch (SQLException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    }
  }

  private Outcome apply(Connection c, Write write) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(commits[shape(write)])) {
      bind(s, write, true);
      s.execute();
      if (s.getUpdateCount() != 1) return Outcome.CONFLICT;
      if (write.inbox().isPresent()) {
        s.getMoreResults();
        if (s.getUpdateCount() != 1) return Outcome.DUPLICATE;
      }
      return Outcome.COMMITTED;
    }
  }

  /**
   * The write's values, in the order both forms of its commit take them: the record's, the inbox
   * entry's, the outbox entry's.
   *
   * @param upsert whether the inbox row is an upsert, which takes the time before which an entry is
   *     forgotten once more
   */
  private static void bind(PreparedStatement s, Write write, boolean upsert) throws SQLException {
    StoredRecord next = write.record();
    int p = 1;
    if (write.expectedVersion() == 0) {
      s.setString(p++, next.id());
      s.setLong(p++, next.version());
      s.setLong(p++, next.created());
      s.setLong(p++, next.updated());
      s.setString(p++, next.state().text());
    } else {
      s.setLong(p++, next.version());
      s.setLong(p++, next.updated());
      s.setString(p++, next.state().text());
      s.setString(p++, next.id());
      s.setLong(p++, write.expectedVersion());
    }
    if (write.inbox().isPresent()) {
      InboxEntry entry = write.inbox().get();
      s.setString(p++, entry.identity());
      s.setString(p++, entry.reply().orElseThrow().text());
      s.setLong(p++, entry.expires());
      s.setString(p++, entry.fingerprint().orElse(null));
      s.setLong(p++, entry.answered());
      s.setLong(p++, entry.forgotten());
      s.setString(p++, entry.record().orElse(null));
      s.setLong(p++, entry.expires());
      if (upsert) s.setLong(p++, next.updated());
    }
    if (write.outbox().isPresent()) {
      OutboxEntry entry = write.outbox().get();
      s.setString(p++, entry.id());
      s.setLong(p++, entry.created());
      s.setString(p++, entry.change().map(io.toa4j.spi.Json::text).orElse(null));
      s.setLong(p++, entry.claimedUntil());
      s.setString(p++, entry.tasks().map(io.toa4j.spi.Json::text).orElse(null));
      s.setString(p, entry.trace().map(io.toa4j.spi.Json::text).orElse(null));
    }
  }

  /** The index of the write's shape among the commits made at construction. */
  private static int shape(Write write) {
    return (write.expectedVersion() == 0 ? 1 : 0)
        + (write.inbox().isPresent() ? 2 : 0)
        + (write.outbox().isPresent() ? 4 : 0);
  }

  @Override
  public Optional<InboxEntry> recorded(String identity, long now) {
    return run(
        () -> "look up the answer to call " + identity,
        c -> {
          try (PreparedStatement s = c.prepareStatement(answer)) {
            s.setString(1, identity);
            s.setLong(2, now);
            try (ResultSet r = s.executeQuery()) {
              return r.next()
                  ? Optional.of(Rows.inboxEntry(r, 1, identity, now))
                  : Optional.empty();
            }
          }
        });
  }

  @Override
  public int purgeInbox(long now, int limit) {
    return run(
        "purge expired inbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(purgeInbox)) {
            for (int p = 1; p <= 6; p += 3) {
              s.setLong(p, now);
              s.setLong(p + 1, now);
              s.setInt(p + 2, limit);
            }
            try (ResultSet r = s.executeQuery()) {
              r.next();
              return r.getInt(1);
            }
          }
        });
  }

  /** How many inbox entries the schema holds, expired or not: for the tests of the purge. */
  long inboxSize() {
    return run(
        "count inbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(inboxSize);
              ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
          }
        });
  }

  @Override
  public List<OutboxEntry> unpublished(int limit) {
    return run(
        "read unpublished outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(unpublished)) {
            s.setInt(1, limit);
            return Rows.entries(s);
          }
        });
  }

  @Override
  public long unpublishedCount() {
    return run(
        "count unpublished outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(unpublishedCount);
              ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
          }
        });
  }

  @Override
  public List<OutboxEntry> claim(int limit, long now, long until) {
    return run(
        "claim outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(claim)) {
            s.setLong(1, until);
            s.setLong(2, now);
            s.setInt(3, limit);
            List<OutboxEntry> entries = Rows.entries(s);
            entries.sort(java.util.Comparator.comparing(OutboxEntry::id));
            return entries;
          }
        });
  }

  @Override
  public List<RecentEntry> recent(int limit) {
    return run(
        "read recent outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(recent)) {
            s.setInt(1, limit);
            return Rows.recent(s);
          }
        });
  }

  @Override
  public void release(Collection<OutboxEntry> entries, long now) {
    if (entries.isEmpty()) return;
    run(
        () -> "give back the claims of " + entries.size() + " outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(release)) {
            s.setLong(1, now);
            s.setArray(2, c.createArrayOf("text", entries.stream().map(OutboxEntry::id).toArray()));
            s.setArray(
                3,
                c.createArrayOf(
                    "bigint", entries.stream().map(OutboxEntry::claimedUntil).toArray()));
            return s.executeUpdate();
          }
        });
  }

  @Override
  public int republish(Collection<String> ids, long now) {
    if (ids.isEmpty()) return 0;
    return run(
        () -> "mark " + ids.size() + " outbox entries for publishing again",
        c -> {
          try (PreparedStatement s = c.prepareStatement(republish)) {
            s.setLong(1, now);
            s.setArray(2, c.createArrayOf("text", ids.toArray()));
            return s.executeUpdate();
          }
        });
  }

  @Override
  public void published(Collection<String> ids, long at) {
    if (ids.isEmpty()) return;
    run(
        "mark " + ids.size() + " outbox entries published",
        c -> {
          try (PreparedStatement s = c.prepareStatement(published)) {
            s.setLong(1, at);
            s.setArray(2, c.createArrayOf("text", ids.toArray()));
            return s.executeUpdate();
          }
        });
  }

  @Override
  public int purgePublished(long before, int limit) {
    return run("purge published outbox entries", c -> update(c, purgePublished, before, limit));
  }

  private static int update(Connection c, String sql, long bound, int limit) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, bound);
      s.setInt(2, limit);
      return s.executeUpdate();
    }
  }

  /** Runs work on a pooled connection, turning a database error into a failure that says where. */
  private <T> T run(String what, Connections.Work<T> work) {
    return run(() -> what, work);
  }

  /**
   * As {@link #run(String, Work)}, the description made only when it fails: on the paths every call
   * takes, so that a call does not pay for the text of an error it does not have.
   */
  private <T> T run(Supplier<String> what, Connections.Work<T> work) {
    try {
      return pool.run(work);
    } catch (SQLException e) {
      throw failures.of(
          what.get() + " in schema " + schema.name() + " (component " + schema.label() + ")", e);
    }
  }
}
