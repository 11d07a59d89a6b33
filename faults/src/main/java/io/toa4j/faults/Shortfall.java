package io.toa4j.faults;

import io.toa4j.api.Request;
import io.toa4j.runtime.CallIdentities;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.SQLiteConfig;

/**
 * On the embedded engine, what became of the credits a wallet lacks at the end, from the facts the
 * clients were answered ({@code facts.tsv}) and the stores' SQLite files, read as they are: the
 * wallet as its file holds it (against what the call observed: a difference is a read that answered
 * older state), the credits its inbox recorded, each direct credit answered without an inbox entry
 * of its own (with the version its answer gave, and whose entry holds that version), and the
 * top-ups answered against the credits from top-ups recorded. Each credit of a wallet is a {@code
 * once} write, so its inbox holds one entry per version of the wallet.
 */
final class Shortfall {
  private static final Pattern VERSION = Pattern.compile("\"VERSION\"\\s*:\\s*(\\d+)");
  private static final int MOST = 5;

  /** A fact the clients were answered: a line of {@code facts.tsv}. */
  private record Fact(
      long at, String endpoint, String identity, String wallet, long amount, String answer) {}

  private Shortfall() {}

  /**
   * Explains each wallet of {@code observed} (a wallet's balance and version as a call observed
   * them), at most {@value #MOST} of them.
   *
   * @param storage the context's storage folder ({@code .toa/storage})
   */
  static void explain(PrintStream out, Path facts, Path storage, Map<String, long[]> observed) {
    try {
      Map<String, List<Fact>> byWallet = new LinkedHashMap<>();
      for (String line : Files.readAllLines(facts)) {
        String[] f = line.split("\t", 6);
        if (f.length < 6) continue;
        byWallet
            .computeIfAbsent(f[3], w -> new ArrayList<>())
            .add(new Fact(Long.parseLong(f[0]), f[1], f[2], f[3], Long.parseLong(f[4]), f[5]));
      }
      try (Connection wallets = open(storage.resolve("billing.wallets.db"));
          Connection topups = open(storage.resolve("billing.topups.db"))) {
        int n = 0;
        for (Map.Entry<String, long[]> wallet : observed.entrySet()) {
          if (n++ == MOST) break;
          explain(
              out,
              wallet.getKey(),
              wallet.getValue(),
              byWallet.getOrDefault(wallet.getKey(), List.of()),
              wallets,
              topups);
        }
      }
    } catch (IOException | SQLException | RuntimeException e) {
      out.println("  the shortfall could not be explained: " + e);
    }
  }

  /**
   * Reads each wallet of {@code observed} (at most {@value #MOST}) {@value #AGAIN} times more
   * through the process that answered it, then once more after that process was killed and started
   * again, and says what each read answered: a version the process keeps answering while a new
   * process answers the file's is state held in the first process (a reader's snapshot kept open, a
   * page cached past a change), not in the file.
   */
  static void reobserve(PrintStream out, Caller caller, Hosts hosts, Map<String, long[]> observed)
      throws InterruptedException {
    List<String> wallets = observed.keySet().stream().limit(MOST).toList();
    for (String wallet : wallets)
      out.printf(
          "  wallet %s read %d times more: %s%n", wallet, AGAIN, versions(caller, wallet, AGAIN));
    for (Hosts.Host host : hosts.hosts()) {
      hosts.kill(host);
      if (!hosts.launchAndAwait(host, 120)) {
        out.println(
            "  the process did not serve again within 120 s: the wallets were not read after a restart");
        return;
      }
    }
    for (String wallet : wallets)
      out.printf("  wallet %s read by a new process: %s%n", wallet, versions(caller, wallet, 3));
  }

  private static final int AGAIN = 20;

  /** The versions {@code times} reads of the wallet answered, each with how many answered it. */
  private static Map<String, Integer> versions(Caller caller, String wallet, int times) {
    Map<String, Integer> answered = new TreeMap<>();
    for (int i = 0; i < times; i++) {
      String version;
      try {
        version =
            String.valueOf(
                version(
                    caller.call("billing.wallets.observe", Request.id(wallet), Toa.newIdentity())));
      } catch (Caller.Unanswered e) {
        version = "unanswered";
      }
      answered.merge("version " + version, 1, Integer::sum);
    }
    return answered;
  }

  private static void explain(
      PrintStream out,
      String wallet,
      long[] observed,
      List<Fact> facts,
      Connection wallets,
      Connection topups)
      throws SQLException {
    long[] stored = {0, 0};
    long updated = 0;
    try (PreparedStatement s =
        wallets.prepareStatement(
            "SELECT version, json_extract(state, '$.balance'), updated FROM records WHERE id = ?")) {
      s.setString(1, wallet);
      try (ResultSet r = s.executeQuery()) {
        if (r.next()) {
          stored = new long[] {r.getLong(2), r.getLong(1)};
          updated = r.getLong(3);
        }
      }
    }
    boolean differs = stored[0] != observed[0] || stored[1] != observed[1];
    String when =
        observed.length < 3
            ? ""
            : "; read at "
                + java.time.Instant.ofEpochMilli(observed[2])
                + ", the record last written at "
                + java.time.Instant.ofEpochMilli(updated)
                + (updated > observed[2]
                    ? ", after the read: a credit that landed late"
                    : ", before the read");
    out.printf(
        "  wallet %s: observed balance %d at version %d; its file holds %d at version %d%s%s%n",
        wallet,
        observed[0],
        observed[1],
        stored[0],
        stored[1],
        differs ? " — a read answered other state than the file holds" : "",
        differs ? when : "");
    Map<String, Long> inbox =
        new LinkedHashMap<>(); // identity → the wallet's version its answer gave
    try (PreparedStatement s =
        wallets.prepareStatement("SELECT identity, reply FROM inbox WHERE record = ?")) {
      s.setString(1, wallet);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) inbox.put(r.getString(1), version(r.getString(2)));
      }
    }
    long direct = 0;
    long fromTopups = inbox.keySet().stream().filter(id -> !id.startsWith("credit-")).count();
    List<Fact> reported = new ArrayList<>();
    for (Fact fact : facts) {
      if (fact.endpoint().equals("billing.topups.record")) {
        reported.add(fact);
        continue;
      }
      direct++;
      if (inbox.containsKey(fact.identity())) continue;
      long version = version(fact.answer());
      String holder =
          inbox.entrySet().stream()
              .filter(e -> e.getValue() == version)
              .map(Map.Entry::getKey)
              .findFirst()
              .orElse("none");
      out.printf(
          "    direct credit %s of %d answered at %d with version %d has no inbox entry; the entry at that version: %s%n",
          fact.identity(), fact.amount(), fact.at(), version, holder);
    }
    out.printf(
        "    inbox entries on the record: %d (%d direct credits answered, %d credits from top-ups recorded, %d top-ups answered)%n",
        inbox.size(), direct, fromTopups, reported.size());
    if (fromTopups >= reported.size()) return;
    int told = 0;
    for (Fact fact : reported) {
      // the load's top-up of key K is record K00000000, reported as record-K; the probe's,
      // Kffffffff as probe-K
      boolean probe = fact.identity().startsWith("probe-");
      String record =
          fact.identity().replaceFirst("^(record|probe)-", "") + (probe ? "ffffffff" : "00000000");
      String found = whatBecameOf(topups, record, inbox);
      if (found.equals(CREDITED)) continue;
      if (told++ == MOST * 2) break;
      out.printf(
          "    top-up %s of %d answered at %d: %s%n", record, fact.amount(), fact.at(), found);
    }
  }

  private static final String CREDITED = "credited";

  /**
   * What became of a top-up: {@value #CREDITED} when the wallet's inbox holds the credit of its
   * {@code paid} event, else what the top-ups' store holds of it.
   */
  private static String whatBecameOf(Connection topups, String record, Map<String, Long> inbox)
      throws SQLException {
    String recorded = recorded(topups, record);
    List<String> entries = new ArrayList<>();
    try (PreparedStatement s =
        topups.prepareStatement(
            "SELECT id, published, claimed_until FROM outbox WHERE change LIKE ?")) {
      s.setString(1, "%\"id\":\"" + record + "\"%");
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String credit = credit(r.getString(1));
          if (inbox.containsKey(credit)) return CREDITED;
          entries.add(
              "outbox entry "
                  + r.getString(1)
                  + (r.getObject(2) == null ? " unpublished" : " published at " + r.getLong(2))
                  + ", claimed until "
                  + r.getLong(3)
                  + ", its credit "
                  + credit
                  + " not in the inbox");
        }
      }
    }
    return recorded
        + "; "
        + (entries.isEmpty()
            ? "no outbox entry (never written, or removed after publishing)"
            : String.join("; ", entries));
  }

  /**
   * The identity of the wallets' credit of the {@code paid} event of an outbox entry, as the
   * runtime derives it: the event's id from the entry's and the label, the delivery's from the
   * event's and the receiving queue.
   */
  private static String credit(String entry) {
    return CallIdentities.delivery(
        CallIdentities.event(entry, "billing.topups.paid"), "billing.topups.paid..billing.wallets");
  }

  private static String recorded(Connection topups, String record) throws SQLException {
    try (PreparedStatement s =
        topups.prepareStatement("SELECT version FROM records WHERE id = ?")) {
      s.setString(1, record);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? "recorded at version " + r.getLong(1) : "NOT RECORDED";
      }
    }
  }

  private static long version(String text) {
    Matcher m = VERSION.matcher(text == null ? "" : text);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static Connection open(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    return config.createConnection("jdbc:sqlite:" + file);
  }
}
