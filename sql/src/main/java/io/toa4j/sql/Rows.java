package io.toa4j.sql;

import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.StoredRecord;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The SPI's values read from the rows of a server storage's tables, whose columns the storages
 * select in the same order, and a selection's parameters bound to their marks. JSON comes back as
 * the column's text. Stateless.
 */
public final class Rows {
  private Rows() {}

  /** The record in the first five columns: id, version, created, updated, state. */
  public static StoredRecord record(ResultSet r) throws SQLException {
    return new StoredRecord(
        r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4), new Json(r.getString(5)));
  }

  /**
   * The outbox entry in the first six columns: id, created, change, claimed_until, tasks, trace.
   */
  public static OutboxEntry entry(ResultSet r) throws SQLException {
    Optional<Json> change = Optional.ofNullable(r.getString(3)).map(Json::new);
    Optional<Json> tasks = Optional.ofNullable(r.getString(5)).map(Json::new);
    Optional<Json> trace = Optional.ofNullable(r.getString(6)).map(Json::new);
    return new OutboxEntry(r.getString(1), r.getLong(2), change, tasks, r.getLong(4), trace);
  }

  /** Every outbox entry the query answers, in its order. */
  public static List<OutboxEntry> entries(PreparedStatement s) throws SQLException {
    try (ResultSet r = s.executeQuery()) {
      List<OutboxEntry> entries = new ArrayList<>();
      while (r.next()) entries.add(entry(r));
      return entries;
    }
  }

  /**
   * Every entry the query answers, each an outbox entry's six columns then when it was published
   * (NULL: not yet).
   */
  public static List<RecentEntry> recent(PreparedStatement s) throws SQLException {
    try (ResultSet r = s.executeQuery()) {
      List<RecentEntry> entries = new ArrayList<>();
      while (r.next()) {
        long published = r.getLong(7);
        OptionalLong marked = r.wasNull() ? OptionalLong.empty() : OptionalLong.of(published);
        entries.add(new RecentEntry(entry(r), marked));
      }
      return entries;
    }
  }

  /**
   * The inbox entry in the row's columns from {@code at} on (reply, expires, fingerprint, answered,
   * forgotten, record), as answered at {@code now}.
   */
  public static InboxEntry inboxEntry(ResultSet r, int at, String identity, long now)
      throws SQLException {
    return new InboxEntry(
            identity,
            Optional.ofNullable(r.getString(at)).map(Json::new),
            r.getLong(at + 1),
            Optional.ofNullable(r.getString(at + 2)),
            r.getLong(at + 3),
            r.getLong(at + 4),
            Optional.ofNullable(r.getString(at + 5)))
        .at(now);
  }

  /** A parameter of {@link Queries} bound to its mark, as the dialect made it. */
  public static void bind(PreparedStatement s, int index, Object value) throws SQLException {
    if (value instanceof Long l) s.setLong(index, l);
    else if (value instanceof BigDecimal d) s.setBigDecimal(index, d);
    else if (value instanceof Boolean b) s.setBoolean(index, b);
    else s.setString(index, (String) value);
  }
}
