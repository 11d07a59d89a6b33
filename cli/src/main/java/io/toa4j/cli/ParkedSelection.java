package io.toa4j.cli;

import io.toa4j.runtime.Admin;
import io.toa4j.runtime.ParkedFilter;
import io.toa4j.spi.Parked;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Which parked messages {@code toa replay} and {@code toa discard} act on: one by its id, or every
 * one that matches the filters ({@code --all} for no filter), oldest first; and the confirmation a
 * person gives before more than {@value #CONFIRM_ABOVE} of them are acted on.
 */
final class ParkedSelection {
  /**
   * Acting on more messages than this asks first: at a terminal, a yes; elsewhere, {@code --yes}.
   */
  static final int CONFIRM_ABOVE = 10;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<id>",
      description = "The parked message's id, as toa parked lists it.")
  String id;

  @Option(
      names = "--all",
      description = "Every parked message (that matches the filters, when some are given).")
  boolean all;

  @Mixin ParkedFilters filters;

  @Option(
      names = "--yes",
      description = "Do not ask before acting on more than " + CONFIRM_ABOVE + " messages.")
  boolean yes;

  /**
   * Whether one message is named by its id; refuses an id beside filters, and neither, as bad
   * usage.
   */
  boolean single(String command) {
    boolean filtered = all || filters.given();
    if (id != null && filtered)
      throw new CliProblem(
          "toa " + command + ": name one message by its id, or filter them, not both", Toa.USAGE);
    if (id == null && !filtered) {
      throw new CliProblem(
          "toa "
              + command
              + ": name a parked message by its id, or choose them with --all or filters (--component, --operation, --code, --since, --limit)",
          Toa.USAGE);
    }
    return id != null;
  }

  /** The filter the options describe. */
  ParkedFilter filter(Clock clock) {
    return filters.filter(clock);
  }

  /**
   * The messages to act on, confirmed: those the filter matches, when there are at most {@value
   * #CONFIRM_ABOVE}, or {@code --yes} was given, or a person at the terminal said yes.
   *
   * @param verb what is done to them, such as "replay"
   * @throws CliProblem when more need a confirmation that was not given; nothing was done
   */
  List<Parked> confirmed(
      Admin admin, ParkedFilter filter, String verb, InputStream in, PrintWriter err) {
    List<Parked> matching = admin.parked(filter);
    if (matching.size() <= CONFIRM_ABOVE || yes) return matching;
    String question =
        verb.substring(0, 1).toUpperCase(Locale.ROOT)
            + verb.substring(1)
            + " "
            + matching.size()
            + " parked messages?";
    if (System.console() == null) {
      throw new CliProblem(
          "failed: "
              + matching.size()
              + " parked messages match, more than "
              + CONFIRM_ABOVE
              + " to "
              + verb
              + " without asking, and there is no terminal to ask at; nothing was done. Give --yes to "
              + verb
              + " them, or narrow the filters",
          Toa.FAILED);
    }
    err.print(question + " [y/N] ");
    err.flush();
    String answer;
    try {
      answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
    } catch (IOException e) {
      answer = null;
    }
    if (answer == null || !answer.trim().toLowerCase(Locale.ROOT).startsWith("y"))
      throw new CliProblem("not confirmed: nothing was done", Toa.FAILED);
    return matching;
  }
}
