package io.toa4j.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the runtime does on MariaDB for a credit declared {@code once}, written by hand with the
 * statements {@code storage-mariadb} issues: read the record and look the identity up in one query;
 * then, in one transaction, the compare-and-swap ({@code UPDATE ... WHERE version = ?}, or an
 * {@code INSERT} whose key may be taken), the inbox row (an {@code INSERT}, and when the identity's
 * row is there an {@code UPDATE} that replaces only a forgotten one), with an event the outbox row,
 * and COMMIT when each counted its row; again from the read when the version moved (or a twin under
 * the same identity committed first, to read its answer). MariaDB's driver sends one statement per
 * round trip, as the storage does. Answers the reply the inbox keeps.
 *
 * @param prefix the prefix of the program's tables: {@code <prefix>_records}, {@code _inbox},
 *     {@code _outbox}, made like the runtime's
 */
record MariadbRaw(HikariDataSource pool, String prefix, boolean event) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();
  private static final String FINGERPRINT = PostgresBench.Raw.fingerprint();

  private String table(String name) {
    return '`' + prefix + '_' + name + '`';
  }

  String credit(String wallet, String identity) throws SQLException {
    while (true) {
      long now = System.currentTimeMillis();
      long version = 0;
      long created = now;
      long updated = now;
      ObjectNode state = JSON.createObjectNode().put("balance", 0);
      try (Connection c = pool.getConnection();
          PreparedStatement s =
              c.prepareStatement(
                  "SELECT r.version, r.created, r.state, i.reply, r.updated FROM (SELECT 1) AS one"
                      + " LEFT JOIN "
                      + table("records")
                      + " r ON r.id = ? LEFT JOIN "
                      + table("inbox")
                      + " i ON i.identity = ? AND i.forgotten > ?")) {
        s.setString(1, wallet);
        s.setString(2, identity);
        s.setLong(3, now);
        try (ResultSet r = s.executeQuery()) {
          r.next();
          if (r.getString(4) != null) return r.getString(4); // answered before
          if (r.getString(3) != null) {
            version = r.getLong(1);
            created = r.getLong(2);
            updated = r.getLong(5);
            state = (ObjectNode) JSON.readTree(r.getString(3));
          }
        }
      }
      ObjectNode next = state.deepCopy().put("balance", state.path("balance").asLong() + 1);
      String answer =
          JSON.writeValueAsString(
              JSON.createObjectNode()
                  .put("id", wallet)
                  .put("VERSION", version + 1)
                  .put("balance", next.get("balance").asLong()));
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        // auto-commit comes back only once the transaction ended: turned on over an open one (an
        // Error cut the work short) it would commit what the statements left; the pool then
        // rolls the connection back as it takes it
        boolean ended = false;
        try {
          if (swapped(c, wallet, version, created, now, next)
              && remembered(c, identity, answer, wallet, now)) {
            if (event) enqueue(c, wallet, version, created, updated, now, state, next);
            c.commit();
            ended = true;
            return answer;
          }
          c.rollback(); // the version moved, or a twin answered first: the read tells which
          ended = true;
        } catch (SQLException e) {
          c.rollback();
          ended = true;
          throw e;
        } finally {
          if (ended) c.setAutoCommit(true);
        }
      }
    }
  }

  private boolean swapped(
      Connection c, String wallet, long version, long created, long now, ObjectNode next)
      throws SQLException {
    if (version == 0) {
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + table("records")
                  + " (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?)")) {
        s.setString(1, wallet);
        s.setLong(2, 1);
        s.setLong(3, created);
        s.setLong(4, now);
        s.setString(5, JSON.writeValueAsString(next));
        return s.executeUpdate() == 1;
      } catch (SQLException e) {
        if (e.getErrorCode() == 1062) return false; // the key is taken: another created it
        throw e;
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE "
                + table("records")
                + " SET version = ?, updated = ?, state = ? WHERE id = ? AND version = ?")) {
      s.setLong(1, version + 1);
      s.setLong(2, now);
      s.setString(3, JSON.writeValueAsString(next));
      s.setString(4, wallet);
      s.setLong(5, version);
      return s.executeUpdate() == 1;
    }
  }

  private boolean remembered(Connection c, String identity, String answer, String wallet, long now)
      throws SQLException {
    long expires = now + 3_600_000;
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + table("inbox")
                + " (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setString(1, identity);
      s.setString(2, answer);
      s.setLong(3, expires);
      s.setString(4, FINGERPRINT);
      s.setLong(5, now);
      s.setLong(6, expires);
      s.setString(7, wallet);
      s.setLong(8, expires);
      return s.executeUpdate() == 1;
    } catch (SQLException e) {
      if (e.getErrorCode() != 1062) throw e;
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE "
                + table("inbox")
                + " SET reply = ?, expires = ?, fingerprint = ?, answered = ?, forgotten = ?, record = ?, due = ?"
                + " WHERE identity = ? AND forgotten <= ?")) {
      s.setString(1, answer);
      s.setLong(2, expires);
      s.setString(3, FINGERPRINT);
      s.setLong(4, now);
      s.setLong(5, expires);
      s.setString(6, wallet);
      s.setLong(7, expires);
      s.setString(8, identity);
      s.setLong(9, now);
      return s.executeUpdate() == 1;
    }
  }

  private void enqueue(
      Connection c,
      String wallet,
      long version,
      long created,
      long updated,
      long now,
      ObjectNode state,
      ObjectNode next)
      throws SQLException {
    JsonNode origin =
        version == 0
            ? NullNode.getInstance()
            : PostgresBench.Raw.view(wallet, version, created, updated, state);
    ObjectNode change = JSON.createObjectNode();
    change.set("origin", origin);
    change.set("state", PostgresBench.Raw.view(wallet, version + 1, created, now, next));
    change.set("input", JSON.createObjectNode().put("amount", 1));
    change.set("trailers", JSON.createObjectNode());
    byte[] random = new byte[10];
    ThreadLocalRandom.current().nextBytes(random);
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + table("outbox")
                + " (id, created, `change`, claimed_until, tasks, trace) VALUES (?, ?, ?, ?, ?, ?)")) {
      s.setString(1, String.format("%012x", now & 0xffffffffffffL) + HEX.formatHex(random));
      s.setLong(2, now);
      s.setString(3, JSON.writeValueAsString(change));
      s.setLong(4, now + 10_000);
      s.setString(5, null);
      s.setString(6, null);
      s.executeUpdate();
    }
  }
}
