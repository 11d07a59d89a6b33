package io.toa4j.faults;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the time of the probe's slowest events went, from what the run's stores and the processes'
 * logs already record: the top-up's outbox entry (committed, how long it stayed claimed and whether
 * a sweep claimed it again, published), the wallet's inbox row (handled), and the lines the
 * processes logged meanwhile that say a part of one lost or got back a server. The processes do not
 * log who committed or published an entry; the claim's end tells the committer's claim ({@code
 * created} plus the claim length) from a sweep's, and the log lines name the process that lost a
 * server.
 */
final class Held {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
  private static final Pattern LINE =
      Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) (WARN|ERROR|INFO) (.*)$");
  private static final Pattern LOG = Pattern.compile("host-(\\d+)-\\d+\\.log");

  /** Log lines said of a server lost or back, or of an entry not published. */
  private static final Pattern TELLING =
      Pattern.compile(
          "out of reach|is back after|heard nothing|not published|not marked|failed|stayed in use");

  private static final int LINES = 6;

  private final String database;
  private final Path logs;
  private final Progress progress;

  /**
   * The committer's claim length, read from the newest entries: most are published by their
   * committer.
   */
  private Long claimLength;

  Held(String database, Path logs, Progress progress) {
    this.database = database;
    this.logs = logs;
    this.progress = progress;
  }

  /** How long before a cut an event counts as meeting it: its entry committed just before. */
  private static final long BEFORE_CUT_NANOS = 1_000_000_000L;

  /**
   * Prints the longest event of each kind of silent cut among those answered while a cut was on, or
   * just before it began: the figure the bound on a process cut off is about.
   */
  void cuts(PrintStream out, List<Load.ProbeEvent> events) {
    java.util.Map<String, Long> longest = new java.util.TreeMap<>();
    for (Progress.Window cut : progress.windows()) {
      if (!cut.fault().startsWith("partition")) continue;
      for (Load.ProbeEvent event : events) {
        if (event.answeredNanos() >= cut.from() - BEFORE_CUT_NANOS
            && event.answeredNanos() <= cut.to()) {
          longest.merge(cut.fault(), event.nanos(), Math::max);
        }
      }
    }
    if (longest.isEmpty()) return;
    out.println(
        "events met by a silent cut (answered while it was on, or up to 1 s before), the longest: "
            + String.join(
                ", ",
                longest.entrySet().stream()
                    .map(e -> String.format("%s %.1f s", e.getKey(), e.getValue() / 1e9))
                    .toList()));
  }

  /** Prints, for each event, one line of where its time went and at most a few log lines. */
  void report(PrintStream out, List<Load.ProbeEvent> events) {
    try (Connection c = DriverManager.getConnection(database)) {
      List<String[]> lines = logLines();
      for (Load.ProbeEvent event : events) {
        long[] credited = new long[1];
        out.println("  " + explain(c, event, credited));
        // the lines of the time the event was held: up to its credit, not the probe's reading of it
        long from = event.answeredMillis() - 1000;
        long to =
            (credited[0] > 0 ? credited[0] : event.answeredMillis() + event.nanos() / 1_000_000)
                + 1000;
        lines.stream()
            .filter(l -> within(l[1], from, to))
            .limit(LINES)
            .forEach(l -> out.println("    host " + l[0] + " " + l[1] + " " + l[2]));
      }
    } catch (SQLException
        | RuntimeException e) { // the report goes on to the ledger whatever this could not read
      out.println("  (where the slowest events' time went could not be read: " + e + ")");
    }
  }

  private String explain(Connection c, Load.ProbeEvent event, long[] credited) throws SQLException {
    long at = event.answeredMillis();
    StringBuilder line =
        new StringBuilder(
            String.format(
                "event %.1f s, answered %s%s: ",
                event.nanos() / 1e9,
                time(at),
                progress
                    .faultBefore(event.answeredNanos())
                    .map(f -> " (after " + f + ")")
                    .orElse("")));
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT created, claimed_until, published FROM billing_topups.outbox WHERE change->'state'->>'id' = ? ORDER BY id LIMIT 1")) {
      s.setString(1, event.topup());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          line.append("its outbox entry is gone (purged); ");
        } else {
          long created = r.getLong(1);
          long claimed = r.getLong(2);
          long published = r.getLong(3);
          boolean unpublished = r.wasNull();
          line.append(
              String.format(
                  "committed %+.1f s, claimed until %+.1f s",
                  (created - at) / 1e3, (claimed - at) / 1e3));
          // the committer claims an entry from its commit; a sweep from when it claimed, which the
          // claim's length says
          line.append(
              claimed - created == claimLength(c)
                  ? " (the committer's claim)"
                  : " (a sweep's claim)");
          line.append(
              unpublished
                  ? ", unpublished"
                  : String.format(", published %+.1f s", (published - at) / 1e3));
          line.append("; ");
        }
      }
    }
    try (PreparedStatement s =
        c.prepareStatement("SELECT min(answered) FROM billing_wallets.inbox WHERE record = ?")) {
      s.setString(1, event.wallet());
      try (ResultSet r = s.executeQuery()) {
        long handled = r.next() ? r.getLong(1) : 0;
        credited[0] = handled;
        line.append(
            handled == 0
                ? "no credit in the wallets' inbox"
                : String.format("credited %+.1f s", (handled - at) / 1e3));
        if (handled > 0 && event.nanos() / 1_000_000 - (handled - at) > 1000) {
          line.append("; the rest is the probe's reading of the wallet (its calls unanswered)");
        }
      }
    }
    return line.toString();
  }

  /**
   * The length of most claims among the newest entries: the committer's, since most are published
   * by their committer.
   */
  private long claimLength(Connection c) throws SQLException {
    if (claimLength != null) return claimLength;
    try (PreparedStatement s =
            c.prepareStatement(
                "SELECT mode() WITHIN GROUP (ORDER BY claimed_until - created) FROM (SELECT * FROM billing_topups.outbox ORDER BY id DESC LIMIT 500) newest");
        ResultSet r = s.executeQuery()) {
      claimLength = r.next() ? r.getLong(1) : 0L;
      return claimLength;
    }
  }

  /** The telling lines of every process's logs: host number, time, text. */
  private List<String[]> logLines() {
    List<String[]> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(logs)) {
      for (Path file : files.sorted().toList()) {
        Matcher name = LOG.matcher(file.getFileName().toString());
        if (!name.matches()) continue;
        for (String text : Files.readAllLines(file)) {
          Matcher m = LINE.matcher(text);
          if (m.matches() && TELLING.matcher(m.group(3)).find()) {
            String rest = m.group(2) + " " + m.group(3);
            lines.add(
                new String[] {
                  name.group(1),
                  m.group(1),
                  rest.length() > 150 ? rest.substring(0, 150) + "…" : rest
                });
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lines.sort((a, b) -> a[1].compareTo(b[1]));
    return lines;
  }

  private static boolean within(String time, long from, long to) {
    try {
      LocalTime t = LocalTime.parse(time, TIME);
      return !t.isBefore(local(from)) && !t.isAfter(local(to));
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static LocalTime local(long millis) {
    return LocalTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault());
  }

  private static String time(long millis) {
    return local(millis).format(TIME);
  }
}
