package io.toa4j.storage.mariadb;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
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
import io.toa4j.sql.MariadbDialect;
import io.toa4j.sql.Queries;
import io.toa4j.sql.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One component's records, outbox and inbox, in its own tables of the storage's database.
 *
 * <p>Each method takes a connection from the storage's pool for its duration. A commit is one
 * InnoDB transaction at READ COMMITTED: the record's compare-and-swap first ({@code UPDATE ...
 * WHERE id = ? AND version = ?}, or an {@code INSERT} whose key may be taken), which takes the row
 * lock, so a racing writer waits, then finds the version moved (or the key taken) and touches
 * nothing; then the inbox row (an {@code INSERT}, and when the call's row is there an {@code
 * UPDATE} that replaces only a forgotten entry), then the outbox row (one row, whatever number of
 * tasks it carries: they are one JSON column). The counts decide between COMMIT and ROLLBACK, so
 * anything short of COMMITTED writes nothing. A deadlock InnoDB breaks is a lost race: CONFLICT.
 * JSON is kept as the text it came as. Thread-safe.
 */
final class MariadbStore implements Store {
  private static final Dialect SQL = new MariadbDialect();

  /** The most ids one statement names; more go in several. */
  private static final int CHUNK = 500;

  private final Tables tables;
  private final Connections pool;
  private final Failures failures;
  private final String outbox;
  private final String read;
  private final String select;
  private final String insert;
  private final String update;
  private final String remove;
  private final String answered;
  private final String forgottenReplaced;
  private final String enqueue;
  private final String answer;
  private final String readAnswered;
  private final String forget;
  private final String expire;
  private final String inboxSize;
  private final String unpublishedCount;
  private final String unpublished;
  private final String claimable;
  private final String recent;
  private final String release;
  private final String purgePublished;

  MariadbStore(Tables tables, Connections pool, Failures failures) {
    this.tables = tables;
    this.pool = pool;
    this.failures = failures;
    String records = tables.table("records");
    String inbox = tables.table("inbox");
    this.outbox = tables.table("outbox");
    String entry = "id, created, `change`, claimed_until, tasks, trace";
    this.read = "SELECT id, version, created, updated, state FROM " + records + " WHERE id = ?";
    this.select = "SELECT id, version, created, updated, state FROM " + records;
    this.insert =
        "INSERT INTO " + records + " (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?)";
    this.update =
        "UPDATE "
            + records
            + " SET version = ?, updated = ?, state = ? WHERE id = ? AND version = ?";
    this.remove = "DELETE FROM " + records + " WHERE id = ? AND version = ?";
    this.answered =
        "INSERT INTO "
            + inbox
            + " (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    this.forgottenReplaced =
        "UPDATE "
            + inbox
            + " SET reply = ?, expires = ?, fingerprint = ?, answered = ?, forgotten = ?, record = ?, due = ?"
            + " WHERE identity = ? AND forgotten <= ?";
    this.enqueue = "INSERT INTO " + outbox + " (" + entry + ") VALUES (?, ?, ?, ?, ?, ?)";
    this.answer =
        "SELECT reply, expires, fingerprint, answered, forgotten, record FROM "
            + inbox
            + " WHERE identity = ? AND forgotten > ?";
    // one row always: the record's columns null when there is none, the answer's when it is not
    // recorded
    this.readAnswered =
        "SELECT r.id, r.version, r.created, r.updated, r.state,"
            + " i.reply, i.expires, i.fingerprint, i.answered, i.forgotten, i.record, i.identity FROM (SELECT 1) AS one"
            + " LEFT JOIN "
            + records
            + " r ON r.id = ? LEFT JOIN "
            + inbox
            + " i ON i.identity = ? AND i.forgotten > ?";
    this.forget = "DELETE FROM " + inbox + " WHERE due <= ? AND forgotten <= ? LIMIT ?";
    this.expire =
        "UPDATE "
            + inbox
            + " SET reply = NULL, due = forgotten WHERE due <= ? AND forgotten > ? AND reply IS NOT NULL LIMIT ?";
    this.inboxSize = "SELECT COUNT(*) FROM " + inbox;
    this.unpublishedCount = "SELECT COUNT(*) FROM " + outbox + " WHERE published IS NULL";
    this.unpublished =
        "SELECT " + entry + " FROM " + outbox + " WHERE published IS NULL ORDER BY id LIMIT ?";
    // SKIP LOCKED: two sweeps running at once take disjoint entries instead of waiting on each
    // other
    this.claimable =
        "SELECT "
            + entry
            + " FROM "
            + outbox
            + " WHERE published IS NULL AND claimed_until <= ? ORDER BY id LIMIT ?"
            + " FOR UPDATE SKIP LOCKED";
    this.recent = "SELECT " + entry + ", published FROM " + outbox + " ORDER BY id DESC LIMIT ?";
    this.release =
        "UPDATE "
            + outbox
            + " SET claimed_until = ? WHERE id = ? AND claimed_until = ? AND published IS NULL";
    this.purgePublished =
        "DELETE FROM " + outbox + " WHERE published IS NOT NULL AND published < ? LIMIT ?";
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
        c -> transaction(c, write));
  }

  /** The write in one transaction: committed when every row went in, rolled back otherwise. */
  private Outcome transaction(Connection c, Write write) throws SQLException {
    try {
      return inTransaction(c, t -> apply(t, write), outcome -> outcome == Outcome.COMMITTED);
    } catch (SQLException e) {
      // a deadlock InnoDB broke means another writer got there: a lost race
      if (Failures.isLostRace(e)) return Outcome.CONFLICT;
      throw e;
    }
  }

  /**
   * Runs the work in one transaction, committed when it returns a result to keep, rolled back when
   * it returns another or throws. Auto-commit is turned back on only once the transaction is known
   * to have ended, since turning it on commits a transaction still open: after anything but a
   * {@code SQLException} (MariaDB's driver skips a rollback when its own view, which such a failure
   * may have left stale, says no transaction is open) or a rollback that failed, the connection
   * goes back as it is — discarded by the pool's gate after an {@code Error} or a {@code
   * RuntimeException}, rolled back by HikariCP or evicted as broken otherwise.
   */
  private static <T> T inTransaction(Connection c, Connections.Work<T> work, Predicate<T> keep)
      throws SQLException {
    c.setAutoCommit(false);
    boolean ended = false;
    try {
      T result = work.run(c);
      if (keep.test(result)) c.commit();
      else c.rollback();
      ended = true;
      return result;
    } catch (SQLException e) {
      // the driver read the server's answer, and with it whether a transaction is open
      ended = rollback(c, e);
      throw e;
    } catch (RuntimeException | Error e) {
      // The driver may not have read the last statement's answer, nor learnt from it that the
      // server began a transaction: its rollback then sends nothing (it asks its own view), and
      // turning auto-commit back on would commit what the statements left, a record without its
      // inbox entry. So the transaction is not taken as ended: the gate discards the connection,
      // and the server rolls back what it holds as the connection goes.
      rollback(c, e);
      throw e;
    } finally {
      if (ended) restoreAutoCommit(c);
    }
  }

  private Outcome apply(Connection c, Write write) throws SQLException {
    if (!swapped(c, write)) return Outcome.CONFLICT;
    if (write.inbox().isPresent() && !remembered(c, write.inbox().get(), write.record().updated()))
      return Outcome.DUPLICATE;
    if (write.outbox().isPresent()) enqueue(c, write.outbox().get());
    return Outcome.COMMITTED;
  }

  /** The record's compare-and-swap: whether it wrote the record. */
  private boolean swapped(Connection c, Write write) throws SQLException {
    StoredRecord next = write.record();
    if (write.expectedVersion() == 0) {
      try (PreparedStatement s = c.prepareStatement(insert)) {
        s.setString(1, next.id());
        s.setLong(2, next.version());
        s.setLong(3, next.created());
        s.setLong(4, next.updated());
        s.setString(5, next.state().text());
        return s.executeUpdate() == 1;
      } catch (SQLException e) {
        if (Failures.isDuplicateKey(e)) return false;
        throw e;
      }
    }
    try (PreparedStatement s = c.prepareStatement(update)) {
      s.setLong(1, next.version());
      s.setLong(2, next.updated());
      s.setString(3, next.state().text());
      s.setString(4, next.id());
      s.setLong(5, write.expectedVersion());
      return s.executeUpdate() == 1;
    }
  }

  /**
   * The call's inbox row: inserted, or, when the call's row is there, replacing it only if it was
   * forgotten by the record's {@code updated}. Whether it was written (false: a twin's answer
   * stands).
   */
  private boolean remembered(Connection c, InboxEntry entry, long at) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(answered)) {
      s.setString(1, entry.identity());
      s.setString(2, entry.reply().orElseThrow().text());
      s.setLong(3, entry.expires());
      s.setString(4, entry.fingerprint().orElse(null));
      s.setLong(5, entry.answered());
      s.setLong(6, entry.forgotten());
      s.setString(7, entry.record().orElse(null));
      s.setLong(8, entry.expires());
      return s.executeUpdate() == 1;
    } catch (SQLException e) {
      if (!Failures.isDuplicateKey(e)) throw e;
    }
    try (PreparedStatement s = c.prepareStatement(forgottenReplaced)) {
      s.setString(1, entry.reply().orElseThrow().text());
      s.setLong(2, entry.expires());
      s.setString(3, entry.fingerprint().orElse(null));
      s.setLong(4, entry.answered());
      s.setLong(5, entry.forgotten());
      s.setString(6, entry.record().orElse(null));
      s.setLong(7, entry.expires());
      s.setString(8, entry.identity());
      s.setLong(9, at);
      return s.executeUpdate() == 1;
    }
  }

  private void enqueue(Connection c, OutboxEntry entry) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(enqueue)) {
      s.setString(1, entry.id());
      s.setLong(2, entry.created());
      s.setString(3, entry.change().map(Json::text).orElse(null));
      s.setLong(4, entry.claimedUntil());
      s.setString(5, entry.tasks().map(Json::text).orElse(null));
      s.setString(6, entry.trace().map(Json::text).orElse(null));
      s.executeUpdate();
    }
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

  /**
   * Removes the entries forgotten, then drops the expired answers of the others: two statements,
   * each bounded.
   */
  @Override
  public int purgeInbox(long now, int limit) {
    return run(
        "purge expired inbox entries",
        c -> {
          int changed = 0;
          for (String sql : List.of(forget, expire)) {
            try (PreparedStatement s = c.prepareStatement(sql)) {
              s.setLong(1, now);
              s.setLong(2, now);
              s.setInt(3, limit);
              changed += s.executeUpdate();
            }
          }
          return changed;
        });
  }

  /** How many inbox entries the tables hold, expired or not: for the tests of the purge. */
  long inboxSize() {
    return run("count inbox entries", c -> count(c, inboxSize));
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
    return run("count unpublished outbox entries", c -> count(c, unpublishedCount));
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql);
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  /**
   * One transaction: the claimable entries read and locked, skipping those another sweep has
   * locked, then their claim moved to {@code until}.
   */
  @Override
  public List<OutboxEntry> claim(int limit, long now, long until) {
    return run(
        "claim outbox entries",
        c ->
            inTransaction(
                c,
                t -> {
                  List<OutboxEntry> found;
                  try (PreparedStatement s = t.prepareStatement(claimable)) {
                    s.setLong(1, now);
                    s.setInt(2, limit);
                    found = Rows.entries(s);
                  }
                  List<String> ids = found.stream().map(OutboxEntry::id).toList();
                  for (List<String> chunk : chunks(ids)) {
                    try (PreparedStatement s =
                        t.prepareStatement(
                            "UPDATE "
                                + outbox
                                + " SET claimed_until = ? WHERE id IN ("
                                + marks(chunk)
                                + ")")) {
                      s.setLong(1, until);
                      for (int i = 0; i < chunk.size(); i++) s.setString(i + 2, chunk.get(i));
                      s.executeUpdate();
                    }
                  }
                  List<OutboxEntry> claimed = new ArrayList<>();
                  for (OutboxEntry e : found)
                    claimed.add(
                        new OutboxEntry(
                            e.id(), e.created(), e.change(), e.tasks(), until, e.trace()));
                  claimed.sort(Comparator.comparing(OutboxEntry::id));
                  return claimed;
                },
                claimed -> true));
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

  /**
   * One statement an entry, sent as one batch: each entry's claim given back only if still the
   * caller's.
   */
  @Override
  public void release(Collection<OutboxEntry> entries, long now) {
    if (entries.isEmpty()) return;
    run(
        () -> "give back the claims of " + entries.size() + " outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(release)) {
            for (OutboxEntry entry : entries) {
              s.setLong(1, now);
              s.setString(2, entry.id());
              s.setLong(3, entry.claimedUntil());
              s.addBatch();
            }
            s.executeBatch();
            return null;
          }
        });
  }

  /**
   * One transaction, however many ids. The claim is set before {@code published} is cleared:
   * MariaDB applies an {@code UPDATE}'s assignments left to right, so the first still sees whether
   * the entry was published. The driver counts the rows found, changed or not: the entries named.
   */
  @Override
  public int republish(Collection<String> ids, long now) {
    if (ids.isEmpty()) return 0;
    return run(
        () -> "mark " + ids.size() + " outbox entries for publishing again",
        c ->
            inTransaction(
                c,
                t -> {
                  int named = 0;
                  for (List<String> chunk : chunks(new ArrayList<>(new LinkedHashSet<>(ids)))) {
                    String sql =
                        "UPDATE "
                            + outbox
                            + " SET claimed_until = CASE WHEN published IS NULL THEN claimed_until ELSE ? END,"
                            + " published = NULL WHERE id IN ("
                            + marks(chunk)
                            + ")";
                    try (PreparedStatement s = t.prepareStatement(sql)) {
                      s.setLong(1, now);
                      for (int i = 0; i < chunk.size(); i++) s.setString(i + 2, chunk.get(i));
                      named += s.executeUpdate();
                    }
                  }
                  return named;
                },
                named -> true));
  }

  @Override
  public void published(Collection<String> ids, long at) {
    if (ids.isEmpty()) return;
    run(
        "mark " + ids.size() + " outbox entries published",
        c -> {
          for (List<String> chunk : chunks(new ArrayList<>(ids))) {
            String sql =
                "UPDATE "
                    + outbox
                    + " SET published = ? WHERE id IN ("
                    + marks(chunk)
                    + ") AND published IS NULL";
            try (PreparedStatement s = c.prepareStatement(sql)) {
              s.setLong(1, at);
              for (int i = 0; i < chunk.size(); i++) s.setString(i + 2, chunk.get(i));
              s.executeUpdate();
            }
          }
          return null;
        });
  }

  @Override
  public int purgePublished(long before, int limit) {
    return run(
        "purge published outbox entries",
        c -> {
          try (PreparedStatement s = c.prepareStatement(purgePublished)) {
            s.setLong(1, before);
            s.setInt(2, limit);
            return s.executeUpdate();
          }
        });
  }

  private static List<List<String>> chunks(List<String> ids) {
    List<List<String>> chunks = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += CHUNK)
      chunks.add(ids.subList(from, Math.min(ids.size(), from + CHUNK)));
    return chunks;
  }

  private static String marks(List<String> chunk) {
    return String.join(", ", Collections.nCopies(chunk.size(), "?"));
  }

  /** Rolls back after a failure, keeping the failure: a rollback on a lost connection fails too. */
  /** Rolls the transaction back after the failure; whether it did. */
  private static boolean rollback(Connection c, Throwable failure) {
    try {
      c.rollback();
      return true;
    } catch (SQLException e) {
      failure.addSuppressed(e);
      return false;
    }
  }

  /** Gives the connection back to the pool as it was lent, committing each statement by itself. */
  private static void restoreAutoCommit(Connection c) throws SQLException {
    if (!c.isClosed()) c.setAutoCommit(true);
  }

  /** Runs work on a pooled connection, turning a database error into a failure that says where. */
  private <T> T run(String what, Connections.Work<T> work) {
    return run(() -> what, work);
  }

  /** As {@link #run(String, Connections.Work)}, the description made only when it fails. */
  private <T> T run(Supplier<String> what, Connections.Work<T> work) {
    try {
      return pool.run(work);
    } catch (SQLException e) {
      throw failures.of(
          what.get() + " on tables " + tables.prefix() + "_* (component " + tables.label() + ")",
          e);
    }
  }
}
