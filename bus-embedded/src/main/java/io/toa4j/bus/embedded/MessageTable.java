package io.toa4j.bus.embedded;

import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * The bus's statements over the {@link Schema}'s tables, each write one durable transaction.
 *
 * <p>Knows nothing of claims or threads: {@link Deliveries} decides what to claim and when.
 * Thread-safe, as {@link Database} is.
 */
final class MessageTable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};
  private static final String COLUMNS =
      "seq, queue, message_id, label, body, headers, attempts, first_failed";
  private static final String INSERT =
      "INSERT INTO message (message_id, label, body, headers, attempts, not_before, created, queue)"
          + " ";
  private static final String NO_DUPLICATE =
      " ON CONFLICT (queue, message_id) DO NOTHING RETURNING queue";

  /** For [id, label] pairs: each id with the queues bound to its label that do not hold that id. */
  private static final String DESTINATIONS =
      "SELECT e.value ->> 0, b.queue FROM json_each(?) e JOIN binding b ON b.label = e.value ->> 1"
          + " WHERE NOT EXISTS (SELECT 1 FROM message m WHERE m.queue = b.queue AND m.message_id = e.value ->> 0)";

  /** Each binding, and whether its queue holds any message. */
  private static final String BINDINGS =
      "SELECT b.label, b.queue, EXISTS (SELECT 1 FROM message m WHERE m.queue = b.queue) FROM binding b";

  /** Changes when another connection, of any process, commits to the file. */
  private static final String DATA_VERSION = "PRAGMA data_version";

  /** A message into one queue, as it stands ({@link Row}). */
  private static final String STORE =
      "INSERT INTO message (message_id, label, body, headers, attempts, not_before, created, queue, first_failed, parked_at, park_code, park_reason)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (queue, message_id) DO NOTHING RETURNING seq";

  /**
   * An event into every queue bound to its label, claimed as stored in the queues named by
   * parameter 5.
   */
  private static final String PUBLISH =
      INSERT
          + "SELECT ?, ?, ?, ?, queue IN (SELECT value FROM json_each(?)), ?, ?, queue FROM binding"
          + " WHERE label = ? ON CONFLICT (queue, message_id) DO NOTHING RETURNING queue, seq, attempts";

  private final Database db;

  /**
   * By reader, what it last read of the bindings ({@link #destinations}): each used only by the
   * reader's borrower.
   */
  private final Map<Connection, Bindings> lastRead = new ConcurrentHashMap<>();

  MessageTable(Database db) {
    this.db = db;
  }

  void declare(String queue, Set<String> labels, long now) {
    db.write(
        "declare the queue " + queue,
        c -> {
          addQueue(c, queue, now);
          try (PreparedStatement s =
              c.prepareStatement(
                  "INSERT INTO binding (label, queue) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            for (String label : labels) {
              s.setString(1, label);
              s.setString(2, queue);
              s.executeUpdate();
            }
          }
          return null;
        });
  }

  /** Stores the event once in every queue bound to its label that does not hold it yet. */
  List<String> publish(Message event, long now) {
    return publish(List.of(event), now, Map.of()).pending();
  }

  /**
   * What a publish stored.
   *
   * @param pending the queues that got a message to be claimed, without repeats
   * @param claimed the messages stored with their first attempt counted, claimed as they were
   */
  record Stored(List<String> pending, List<Claim> claimed) {}

  /**
   * Stores each event once in every queue bound to its label that does not hold it yet, all in one
   * transaction through one statement; counts the first attempt of at most {@code room} of them per
   * queue as it stores them.
   *
   * @param room per queue, how many of the messages stored in it to store claimed
   */
  Stored publish(List<Message> events, long now, Map<String, Integer> room) {
    Message first = events.get(0);
    String what =
        events.size() == 1
            ? "publish the event " + first.id() + " (" + first.label() + ")"
            : "publish "
                + events.size()
                + " events, the first "
                + first.id()
                + " ("
                + first.label()
                + ")";
    return db.write(
        what,
        c -> {
          Map<String, Integer> left = new HashMap<>(room);
          left.values().removeIf(n -> n <= 0);
          Set<String> pending = new LinkedHashSet<>();
          List<Claim> claimed = new ArrayList<>();
          PreparedStatement s = db.prepared(PUBLISH);
          String withRoom =
              json(left.keySet()); // queue names are free text: a JSON array for json_each
          for (Message event : events) {
            s.setString(1, event.id());
            s.setString(2, event.label());
            s.setString(3, event.body().text());
            s.setString(4, json(event.headers()));
            s.setString(5, withRoom);
            s.setLong(6, now);
            s.setLong(7, now);
            s.setString(8, event.label());
            try (ResultSet r = s.executeQuery()) {
              while (r.next()) {
                String queue = r.getString(1);
                if (r.getInt(3) == 0) {
                  pending.add(queue);
                  continue;
                }
                claimed.add(new Claim(r.getLong(2), new Delivery(event, queue, 1)));
                if (left.merge(queue, -1, Integer::sum) == 0) {
                  left.remove(queue);
                  withRoom = json(left.keySet());
                }
              }
            }
          }
          return new Stored(List.copyOf(pending), List.copyOf(claimed));
        });
  }

  /**
   * Where each event goes: by event id, the queues bound to its label that do not hold a message of
   * that id already (pending, claimed or parked). A read, no lock taken.
   *
   * <p>Each reader keeps what it last read of the bindings, and which of their queues held any
   * message, with the file's data version it asked for just before. While the version stays the
   * same, no connection of any process committed anything since (SQLite's {@code PRAGMA
   * data_version}): no queue was bound, no message stored. So when none of the events' queues held
   * a message then, none holds one of their ids now, and the answer comes from what was kept, for
   * the price of asking the version. Otherwise the file is read, as it always may be; the bindings
   * are read again once the version is seen unchanged by the reader's next publish.
   */
  Map<String, List<String>> destinations(List<Message> events) {
    return db.read(
        "read where " + events.size() + " event(s) go, the first " + events.get(0).id(),
        c -> {
          // the version first: a commit after it, even one the reads below see, changes the next
          // one
          long version = dataVersion(c);
          Bindings known = lastRead.get(c);
          if (known == null || known.version() != version) {
            // the file changed since this reader last looked: the bindings are read again only once
            // it holds still from one publish to the next, so that writes between publishes cost
            // the version and the one read, not a read of the bindings each time too
            lastRead.put(c, new Bindings(version, null, null));
            return readDestinations(c, events);
          }
          if (known.queues() == null) {
            known = bindings(c, version);
            lastRead.put(c, known);
          }
          Map<String, List<String>> kept = known.destinations(events);
          return kept != null ? kept : readDestinations(c, events);
        });
  }

  private Map<String, List<String>> readDestinations(Connection c, List<Message> events)
      throws SQLException {
    List<List<String>> pairs = events.stream().map(e -> List.of(e.id(), e.label())).toList();
    Map<String, List<String>> queues = new HashMap<>();
    PreparedStatement s = db.prepared(c, DESTINATIONS);
    s.setString(1, json(pairs));
    try (ResultSet r = s.executeQuery()) {
      while (r.next())
        queues.computeIfAbsent(r.getString(1), id -> new ArrayList<>()).add(r.getString(2));
    }
    return queues;
  }

  private long dataVersion(Connection c) throws SQLException {
    try (ResultSet r = db.prepared(c, DATA_VERSION).executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  private Bindings bindings(Connection c, long version) throws SQLException {
    Map<String, List<String>> queues = new HashMap<>();
    Set<String> holding = new HashSet<>();
    try (ResultSet r = db.prepared(c, BINDINGS).executeQuery()) {
      while (r.next()) {
        queues.computeIfAbsent(r.getString(1), label -> new ArrayList<>()).add(r.getString(2));
        if (r.getInt(3) != 0) holding.add(r.getString(2));
      }
    }
    return new Bindings(version, queues, holding);
  }

  /**
   * What one reader read of the bindings at a data version: the queues bound to each label, and
   * those of them that held any message; both null while only the version is known.
   */
  private record Bindings(long version, Map<String, List<String>> queues, Set<String> holding) {
    /**
     * Where each event goes, by event id; null when a queue of theirs held messages, whose ids only
     * the file tells.
     */
    Map<String, List<String>> destinations(List<Message> events) {
      Map<String, List<String>> destinations = new HashMap<>();
      for (Message event : events) {
        List<String> bound = queues.getOrDefault(event.label(), List.of());
        for (String queue : bound) if (holding.contains(queue)) return null;
        if (!bound.isEmpty())
          destinations.computeIfAbsent(event.id(), id -> new ArrayList<>()).addAll(bound);
      }
      return destinations;
    }
  }

  /**
   * A message for one queue, stored as it stands after what happened to it before: pending and
   * never tried; or tried once, by a handler it was handed to before it was stored, and then still
   * being handled (claimed), to come again after a delay, or parked.
   *
   * @param attempts 0 for a message never tried, else 1
   * @param firstFailed when its first attempt failed; null unless it did
   * @param parkedAt when it was parked; null unless it is
   */
  record Row(
      Message message,
      String queue,
      int attempts,
      long notBefore,
      Long firstFailed,
      Long parkedAt,
      String parkCode,
      String parkReason) {
    /** Never tried. */
    static Row pending(Message message, String queue, long now) {
      return new Row(message, queue, 0, now, null, null, null, null);
    }

    /** Tried once and still being handled: stored claimed. */
    static Row handling(Message message, String queue, long now) {
      return new Row(message, queue, 1, now, null, null, null, null);
    }

    /** Tried once, failed at {@code now}, to come again at {@code notBefore}. */
    static Row retried(Message message, String queue, long notBefore, long now) {
      return new Row(message, queue, 1, notBefore, now, null, null, null);
    }

    /** Tried once and parked at {@code now}. */
    static Row parked(Message message, String queue, String code, String reason, long now) {
      return new Row(message, queue, 1, now, now, now, code, reason);
    }

    /** Whether it is still being handled, and so stored claimed. */
    boolean held() {
      return attempts > 0 && firstFailed == null;
    }
  }

  /**
   * Stores the rows, each in its queue unless the queue holds that message already, in one durable
   * transaction.
   *
   * @return each row's seq, or null where the queue held the message already
   */
  List<Long> store(List<Row> rows, long now) {
    return db.write(
        "store "
            + rows.size()
            + " message(s), the first "
            + rows.get(0).message().id()
            + " in the queue "
            + rows.get(0).queue(),
        c -> {
          List<Long> seqs = new ArrayList<>(rows.size());
          PreparedStatement s = db.prepared(STORE);
          for (Row row : rows) {
            s.setString(1, row.message().id());
            s.setString(2, row.message().label());
            s.setString(3, row.message().body().text());
            s.setString(4, json(row.message().headers()));
            s.setInt(5, row.attempts());
            s.setLong(6, row.notBefore());
            s.setLong(7, now);
            s.setString(8, row.queue());
            s.setObject(9, row.firstFailed());
            s.setObject(10, row.parkedAt());
            s.setString(11, row.parkCode());
            s.setString(12, row.parkReason());
            try (ResultSet r = s.executeQuery()) {
              seqs.add(r.next() ? r.getLong(1) : null);
            }
          }
          return seqs;
        });
  }

  /** Stores the message in the queue unless it holds it already; creates the queue if missing. */
  boolean send(String queue, Message message, long now) {
    String sql = INSERT + "VALUES (?, ?, ?, ?, 0, ?, ?, ?)" + NO_DUPLICATE;
    String body = message.body().text();
    String headers = json(message.headers());
    return db.write(
        "send the message " + message.id() + " to the queue " + queue,
        c -> {
          addQueue(c, queue, now);
          try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, message, body, headers, now);
            s.setString(7, queue);
            return !strings(s).isEmpty();
          }
        });
  }

  /**
   * Whether the queue has a row due at {@code now} other than {@code skip}: a read, no lock taken.
   */
  boolean anyDue(String queue, long now, Collection<Long> skip) {
    return db.read(
        "look for due messages in the queue " + queue,
        c -> {
          PreparedStatement s = db.prepared(c, ANY_DUE);
          bindDue(s, queue, now, skip);
          try (ResultSet r = s.executeQuery()) {
            return r.next();
          }
        });
  }

  /**
   * Counts one more attempt on at most {@code limit} rows of the queue pending and due at {@code
   * now}, leaving out {@code skip}, in one transaction through one statement. It does not wait for
   * the disk: the count survives a crash of the process, and one that a power loss takes back only
   * lets the message be delivered once more than its attempts say.
   *
   * @return the rows counted, as deliveries, oldest due first
   */
  List<Claim> claim(String queue, long now, int limit, Collection<Long> skip) {
    return db.writeUnsynced(
        "count a delivery attempt in the queue " + queue,
        c -> {
          record Due(long notBefore, Claim claim) {}
          List<Due> claimed = new ArrayList<>();
          PreparedStatement s = db.prepared(CLAIM);
          bindDue(s, queue, now, skip);
          s.setInt(4, limit);
          try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
              Delivery delivery =
                  new Delivery(message(r), r.getString(2), r.getInt(7), firstFailed(r));
              claimed.add(new Due(r.getLong(9), new Claim(r.getLong(1), delivery)));
            }
          }
          // RETURNING gives the rows in no set order: oldest due first, as they were picked
          claimed.sort(
              Comparator.comparingLong(Due::notBefore).thenComparingLong(d -> d.claim().seq()));
          return claimed.stream().map(Due::claim).toList();
        });
  }

  /** The rows of a queue a consumer may take: pending, due, not held; parameters 1 to 3. */
  private static final String DUE =
      "queue = ? AND parked_at IS NULL AND not_before <= ? AND seq NOT IN (SELECT value FROM json_each(?))";

  /** Whether a row is due: {@link #DUE}'s parameters. */
  private static final String ANY_DUE = "SELECT 1 FROM message WHERE " + DUE + " LIMIT 1";

  /** One more attempt counted on at most parameter 4 rows due, oldest due first. */
  private static final String CLAIM =
      "UPDATE message SET attempts = attempts + 1 WHERE seq IN (SELECT seq FROM message WHERE "
          + DUE
          + " ORDER BY not_before, seq LIMIT ?) RETURNING "
          + COLUMNS
          + ", not_before";

  private static void bindDue(PreparedStatement s, String queue, long now, Collection<Long> skip)
      throws SQLException {
    s.setString(1, queue);
    s.setLong(2, now);
    s.setString(3, array(skip));
  }

  /** Row numbers as a JSON array, for {@code json_each}. */
  private static String array(Collection<Long> seqs) {
    return seqs.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
  }

  /**
   * Records verdicts in one transaction: the handled rows removed by one statement, the others
   * postponed or parked. Without parkings it does not wait for the disk: a removal or a
   * postponement that a power loss takes back only makes the message due again and delivers it
   * again, as at least once allows; a parking, which takes the message out of delivery, is on disk
   * when this returns.
   */
  void settle(Collection<Long> handled, List<Postponed> postponed, List<Parking> parked) {
    String what =
        "record the verdicts on "
            + (handled.size() + postponed.size() + parked.size())
            + " message(s)";
    Database.Work<Void> work =
        c -> {
          if (!handled.isEmpty()) {
            PreparedStatement s =
                db.prepared("DELETE FROM message WHERE seq IN (SELECT value FROM json_each(?))");
            s.setString(1, array(handled));
            s.executeUpdate();
          }
          for (Postponed p : postponed) postpone(c, p);
          for (Parking p : parked) park(c, p);
          return null;
        };
    if (parked.isEmpty()) db.writeUnsynced(what, work);
    else db.write(what, work);
  }

  /**
   * A row to make due again at {@code notBefore}, failed first at {@code now} if it had not failed.
   */
  record Postponed(long seq, long notBefore, long now) {}

  /** A row to park with the handler's code and reason, at {@code at}. */
  record Parking(long seq, String code, String reason, long at) {}

  private static void postpone(Connection c, Postponed p) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE message SET not_before = ?, first_failed = coalesce(first_failed, ?) WHERE seq = ?")) {
      s.setLong(1, p.notBefore());
      s.setLong(2, p.now());
      s.setLong(3, p.seq());
      s.executeUpdate();
    }
  }

  private static void park(Connection c, Parking p) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE message SET parked_at = ?, park_code = ?, park_reason = ?,"
                + " first_failed = coalesce(first_failed, ?) WHERE seq = ?")) {
      s.setLong(1, p.at());
      s.setString(2, p.code());
      s.setString(3, p.reason());
      s.setLong(4, p.at());
      s.setLong(5, p.seq());
      s.executeUpdate();
    }
  }

  List<Parked> parked() {
    return db.read(
        "list the parked messages",
        c -> {
          try (PreparedStatement s =
                  c.prepareStatement(
                      "SELECT "
                          + COLUMNS
                          + ", park_code, park_reason, parked_at FROM message"
                          + " WHERE parked_at IS NOT NULL ORDER BY parked_at, seq");
              ResultSet r = s.executeQuery()) {
            List<Parked> parked = new ArrayList<>();
            while (r.next()) {
              parked.add(
                  new Parked(
                      String.valueOf(r.getLong(1)),
                      r.getString(2),
                      message(r),
                      r.getString(9),
                      r.getString(10),
                      r.getInt(7),
                      r.getLong(11),
                      firstFailed(r).orElse(r.getLong(11))));
            }
            return parked;
          }
        });
  }

  /** Makes the parked row pending again, due at {@code now}; answers its queue. */
  Optional<String> replay(long seq, long now) {
    return db.write(
        "replay the parked message " + seq,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "UPDATE message SET parked_at = NULL, park_code = NULL, park_reason = NULL,"
                      + " not_before = ? WHERE seq = ? AND parked_at IS NOT NULL RETURNING"
                      + " queue")) {
            s.setLong(1, now);
            s.setLong(2, seq);
            return strings(s).stream().findFirst();
          }
        });
  }

  /** Removes the parked row for good; answers its queue and message id. */
  Optional<String> discard(long seq) {
    return db.write(
        "discard the parked message " + seq,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "DELETE FROM message WHERE seq = ? AND parked_at IS NOT NULL RETURNING"
                      + " queue || ' ' || message_id")) {
            s.setLong(1, seq);
            return strings(s).stream().findFirst();
          }
        });
  }

  /** How many messages are parked: a count over the index of parked rows. */
  long parkedCount() {
    return db.read(
        "count the parked messages",
        c -> {
          try (PreparedStatement s =
                  c.prepareStatement("SELECT count(*) FROM message WHERE parked_at IS NOT NULL");
              ResultSet r = s.executeQuery()) {
            return r.next() ? r.getLong(1) : 0L;
          }
        });
  }

  long depth(String queue) {
    return db.read(
        "count the messages of the queue " + queue,
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT count(*) FROM message WHERE queue = ? AND parked_at IS NULL")) {
            s.setString(1, queue);
            try (ResultSet r = s.executeQuery()) {
              return r.next() ? r.getLong(1) : 0L;
            }
          }
        });
  }

  private static void addQueue(Connection c, String queue, long now) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO queue (name, declared) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
      s.setString(1, queue);
      s.setLong(2, now);
      s.executeUpdate();
    }
  }

  /** Binds the values every insert shares, leaving the seventh parameter: the queue or label. */
  private static void bind(PreparedStatement s, Message m, String body, String headers, long now)
      throws SQLException {
    s.setString(1, m.id());
    s.setString(2, m.label());
    s.setString(3, body);
    s.setString(4, headers);
    s.setLong(5, now);
    s.setLong(6, now);
  }

  private static List<String> strings(PreparedStatement s) throws SQLException {
    List<String> values = new ArrayList<>();
    try (ResultSet r = s.executeQuery()) {
      while (r.next()) values.add(r.getString(1));
    }
    return values;
  }

  /** The first failure of a row selected with {@link #COLUMNS} first; empty while it has none. */
  private static OptionalLong firstFailed(ResultSet r) throws SQLException {
    long at = r.getLong(8);
    return r.wasNull() ? OptionalLong.empty() : OptionalLong.of(at);
  }

  /** The message of a row selected with {@link #COLUMNS} first. */
  private static Message message(ResultSet r) throws SQLException {
    String id = r.getString(3);
    try {
      return new Message(
          id, r.getString(4), new Json(r.getString(5)), JSON.readValue(r.getString(6), HEADERS));
    } catch (JacksonException e) {
      throw new SQLException(
          "The stored message " + id + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "Cannot write the message as JSON: " + e.getOriginalMessage(), e);
    }
  }
}
