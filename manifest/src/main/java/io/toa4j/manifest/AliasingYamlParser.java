package io.toa4j.manifest;

import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionEndEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.DocumentStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.MappingEndEvent;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.events.SequenceStartEvent;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * A YAML parser that reads an alias as the value its anchor stands for, and a merge key ({@code <<:
 * *base}, {@code <<: [*a, *b]}) as the merged mapping's keys, at the level of the YAML engine's
 * events, so the rest of Jackson sees plain values.
 *
 * <p>An alias repeats the events recorded for its anchor (the latest one above it in the document);
 * the values it repeats count toward {@link Yaml#MAX_ALIASED_VALUES}, and a document whose aliases
 * repeat more is refused. A merge key's value is read whole; its keys come out at the end of the
 * mapping, each unless the mapping writes it itself or an earlier merged mapping brought it. Every
 * event passes on once resolved: a recorded anchor holds no aliases and no merge keys.
 *
 * <p>A scalar whose escapes write a lone surrogate is refused where it starts ({@link Surrogates}).
 */
final class AliasingYamlParser extends YAMLParser {
  /**
   * Events waiting to pass on: an alias's replay, a mapping's merged keys; all resolved already.
   */
  private final Deque<Event> pending = new ArrayDeque<>();

  /** The events of each anchor, the latest definition of each name. */
  private final Map<String, List<Event>> anchors = new HashMap<>();

  /** Anchored collections still open, outermost first. */
  private final List<Recording> recordings = new ArrayList<>();

  /** Open collections of the events passed on, innermost first. */
  private final Deque<Frame> frames = new ArrayDeque<>();

  /** Recordings below this index are not recording: a merge key's value is being read aside. */
  private int floor;

  /** How many merge keys' values are being read aside, one within another. */
  private int aside;

  /** The values aliases have repeated so far. */
  private long repeated;

  AliasingYamlParser(
      ObjectReadContext readContext,
      IOContext ioContext,
      BufferRecycler recycler,
      int streamReadFeatures,
      int formatReadFeatures,
      LoadSettings settings,
      Reader reader,
      boolean ownsReader) {
    super(
        readContext,
        ioContext,
        recycler,
        streamReadFeatures,
        formatReadFeatures,
        settings,
        reader,
        ownsReader);
  }

  @Override
  protected Event nextEvent() {
    while (true) {
      if (!pending.isEmpty()) {
        return passOn(pending.removeFirst());
      }
      Event event = super.nextEvent();
      if (event == null) {
        return null;
      }
      if (event instanceof ScalarEvent scalar) {
        refuseLoneSurrogate(scalar);
      }
      if (event instanceof DocumentStartEvent) {
        anchors.clear(); // an anchor names a value within its own document
      }
      if (event instanceof AliasEvent alias) {
        pending.addAll(replay(alias));
        continue;
      }
      Frame frame = frames.peek();
      if (frame != null && frame.mapping && frame.atKey && isMergeKey(event)) {
        merge(frame, event);
        continue;
      }
      if (event instanceof MappingEndEvent && frame != null && !frame.merged.isEmpty()) {
        pending.addAll(mergedEntries(frame));
        frame.merged.clear();
        pending.addLast(event);
        continue;
      }
      if (event instanceof NodeEvent node && node.getAnchor().isPresent()) {
        String anchor = node.getAnchor().get().getValue();
        if (event instanceof CollectionStartEvent) {
          recordings.add(new Recording(anchor));
        } else {
          anchors.put(anchor, List.of(event));
        }
      }
      return passOn(event);
    }
  }

  /** Tracks and records a resolved event, and hands it on. */
  private Event passOn(Event event) {
    track(event);
    record(event);
    return event;
  }

  private List<Event> replay(AliasEvent alias) {
    String name = alias.getAlias().getValue();
    List<Event> events = anchors.get(name);
    if (events == null) {
      boolean inside = recordings.stream().anyMatch(r -> r.anchor.equals(name));
      throw inside
          ? refusal(
              alias,
              "the alias *"
                  + name
                  + " is inside the value anchored &"
                  + name
                  + ", which cannot contain itself",
              "write that part out")
          : refusal(
              alias,
              "the alias *" + name + " names no anchor above it",
              "put &" + name + " on the value it stands for, before the alias");
    }
    repeated += events.stream().filter(e -> e instanceof NodeEvent).count();
    if (repeated > Yaml.MAX_ALIASED_VALUES) {
      throw refusal(
          alias,
          "the document expands past " + Yaml.MAX_ALIASED_VALUES + " values through its aliases",
          "each alias repeats its anchored value, every key, scalar,"
              + " list and mapping in it; use fewer aliases or smaller anchored values");
    }
    return events;
  }

  /** A plain {@code <<} in a key's place, untagged: YAML's merge key. */
  private static boolean isMergeKey(Event event) {
    return event instanceof ScalarEvent scalar
        && scalar.isPlain()
        && scalar.getValue().equals("<<")
        && scalar.getTag().isEmpty()
        && scalar.getAnchor().isEmpty();
  }

  /** Reads the merge key's value aside and keeps the mappings it names for the mapping's end. */
  private void merge(Frame frame, Event key) {
    if (frame.mergeKeys++ > 0) {
      throw refusal(
          key,
          "the merge key << appears twice in one mapping",
          "merge a list instead, such as <<: [*a, *b]");
    }
    List<Event> value = readAside();
    if (value.isEmpty()) {
      return; // the YAML engine reports the document's unexpected end itself
    }
    List<List<Event>> mappings = new ArrayList<>();
    if (value.get(0) instanceof SequenceStartEvent) {
      for (int at = 1; at < value.size() - 1; at = end(value, at)) {
        mappings.add(value.subList(at, end(value, at)));
      }
    } else {
      mappings.add(value);
    }
    for (List<Event> mapping : mappings) {
      if (!(mapping.get(0) instanceof MappingStartEvent)) {
        throw refusal(
            key,
            "the merge key << takes a mapping, an alias of one or a list of them,"
                + " and this value is "
                + (value == mapping ? "not a mapping" : "a list holding something else"),
            "write the keys out, or anchor a mapping and merge its alias");
      }
      frame.merged.add(mapping);
    }
  }

  /** The next value, resolved, without passing it on or recording it in anchors around it. */
  private List<Event> readAside() {
    int outerFloor = floor;
    floor = recordings.size();
    aside++;
    frames.push(new Frame(false));
    List<Event> value = new ArrayList<>();
    int depth = 0;
    do {
      Event event = nextEvent();
      if (event == null) {
        break; // the YAML engine reports the document's unexpected end itself
      }
      value.add(event);
      if (event instanceof CollectionStartEvent) depth++;
      if (event instanceof CollectionEndEvent) depth--;
    } while (depth > 0);
    frames.pop();
    floor = outerFloor;
    aside--;
    return value;
  }

  /** The merged mappings' entries the mapping does not write itself; the first mapping wins. */
  private List<Event> mergedEntries(Frame frame) {
    List<Event> entries = new ArrayList<>();
    Set<String> taken = new HashSet<>(frame.keys);
    for (List<Event> mapping : frame.merged) {
      for (int at = 1; at < mapping.size() - 1; ) {
        int valueEnd = end(mapping, at + 1);
        // a key that is no scalar passes on, for Jackson to refuse as it refuses any such key
        if (!(mapping.get(at) instanceof ScalarEvent key) || taken.add(key.getValue())) {
          entries.addAll(mapping.subList(at, valueEnd));
        }
        at = valueEnd;
      }
    }
    return entries;
  }

  /** Where the value that starts at {@code start} ends (exclusive). */
  private static int end(List<Event> events, int start) {
    int depth = 0;
    int at = start;
    do {
      Event event = events.get(at++);
      if (event instanceof CollectionStartEvent) depth++;
      if (event instanceof CollectionEndEvent) depth--;
    } while (depth > 0);
    return at;
  }

  /** Follows which collection the events are in, and in a mapping whether a key comes next. */
  private void track(Event event) {
    Frame frame = frames.peek();
    if (event instanceof CollectionStartEvent) {
      frames.push(new Frame(event instanceof MappingStartEvent));
    } else if (event instanceof CollectionEndEvent) {
      frames.pop();
      done(frames.peek());
    } else if (event instanceof ScalarEvent scalar) {
      if (frame != null && frame.mapping && frame.atKey) {
        frame.keys.add(scalar.getValue());
      }
      done(frame);
    }
  }

  private static void done(Frame frame) {
    if (frame != null && frame.mapping) {
      frame.atKey = !frame.atKey;
    }
  }

  /** Adds the event to every anchored collection open above the floor; closes the one it ends. */
  private void record(Event event) {
    for (int i = floor; i < recordings.size(); i++) {
      Recording recording = recordings.get(i);
      recording.events.add(event);
      if (event instanceof CollectionStartEvent) recording.depth++;
      if (event instanceof CollectionEndEvent) recording.depth--;
    }
    if (recordings.size() > floor && recordings.get(recordings.size() - 1).depth == 0) {
      Recording closed = recordings.remove(recordings.size() - 1);
      anchors.put(closed.anchor, List.copyOf(closed.events));
    }
  }

  /**
   * A scalar's escapes may write a surrogate that is half of no pair: no character, nothing to
   * store.
   */
  private void refuseLoneSurrogate(ScalarEvent scalar) {
    OptionalInt at = Surrogates.lone(scalar.getValue());
    if (at.isPresent()) {
      throw refusal(
          scalar, Surrogates.problem(scalar.getValue(), at.getAsInt()), Surrogates.ADVICE);
    }
  }

  private Yaml.ReadProblem refusal(Event at, String problem, String advice) {
    boolean inMerge = aside > 0 || isMergeKey(at);
    return new Yaml.ReadProblem(this, problem, advice, _locationFor(at.getStartMark()), inMerge);
  }

  private static final class Recording {
    final String anchor;
    final List<Event> events = new ArrayList<>();
    int depth;

    Recording(String anchor) {
      this.anchor = anchor;
    }
  }

  private static final class Frame {
    final boolean mapping;
    final Set<String> keys = new HashSet<>();
    final List<List<Event>> merged = new ArrayList<>();
    boolean atKey = true;
    int mergeKeys;

    Frame(boolean mapping) {
      this.mapping = mapping;
    }
  }
}
