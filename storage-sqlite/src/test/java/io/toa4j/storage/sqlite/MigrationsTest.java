package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.testkit.jdbc.CutShort;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store's file brought up to date ({@link Migrations}), on real SQLite files. */
class MigrationsTest {
  @TempDir Path directory;

  /**
   * A migration cut short by an {@link Error} after any of its statements ran ({@link CutShort}),
   * its connection then closed as a store that cannot open closes it, keeps nothing: the next open
   * applies every step. Turning auto-commit back on after the error would commit the steps the
   * transaction held without the version that records them, and every later open would fail on the
   * first.
   */
  @Test
  void migration_cutShortAfterAnyStatement_keepsNothing_andTheNextOpenAppliesEveryStep()
      throws Exception {
    CutShort counting = CutShort.after(0);
    Path first = directory.resolve("counted.db");
    try (Connection c = connect(first)) {
      Migrations.apply(counting.wrap(c), first);
    }
    List<String> tables = tables(first);
    int statements = counting.runs();
    assertThat(statements).isGreaterThan(Migrations.STEPS.size());

    for (int n = 1; n <= statements; n++) {
      Path file = directory.resolve("cut-" + n + ".db");
      CutShort cut = CutShort.after(n);
      try (Connection c = connect(file)) {
        assertThatThrownBy(() -> Migrations.apply(cut.wrap(c), file))
            .isInstanceOf(CutShort.Cut.class);
      }
      try (Connection c = connect(file)) {
        Migrations.apply(c, file);
        try (Statement s = c.createStatement();
            ResultSet r = s.executeQuery("PRAGMA user_version")) {
          assertThat(r.getInt(1))
              .as("the version after a cut at statement %d and an open", n)
              .isEqualTo(Migrations.STEPS.size());
        }
      }
      assertThat(tables(file)).isEqualTo(tables);
    }
  }

  private static Connection connect(Path file) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file);
  }

  /** The file's tables and indexes, by name. */
  private static List<String> tables(Path file) throws SQLException {
    try (Connection c = connect(file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT name FROM sqlite_master ORDER BY name")) {
      List<String> names = new ArrayList<>();
      while (r.next()) names.add(r.getString(1));
      return names;
    }
  }
}
