package io.toa4j.runtime;

import io.toa4j.spi.Parked;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One page of the parked messages that match a filter ({@link Admin#parked(ParkedFilter, int,
 * int)}), with the counts an operator's page shows beside it.
 *
 * @param total how many messages are parked
 * @param matching how many of them match the filter
 * @param offset how many matching ones come before this page
 * @param rows the page, oldest first
 * @param components how many are parked by the component they are delivered to, over all of them
 * @param operations how many by operation, {@code namespace.name.operation}, over all of them
 * @param codes how many by the failure's code, over all of them
 * @param queues how many by the queue they came from, over all of them
 */
public record ParkedPage(
    int total,
    int matching,
    int offset,
    List<Row> rows,
    SortedMap<String, Long> components,
    SortedMap<String, Long> operations,
    SortedMap<String, Long> codes,
    SortedMap<String, Long> queues) {
  /** The most rows one page holds. */
  public static final int MOST = 1000;

  public ParkedPage {
    rows = List.copyOf(rows);
    components = Collections.unmodifiableSortedMap(new TreeMap<>(components));
    operations = Collections.unmodifiableSortedMap(new TreeMap<>(operations));
    codes = Collections.unmodifiableSortedMap(new TreeMap<>(codes));
    queues = Collections.unmodifiableSortedMap(new TreeMap<>(queues));
  }

  /**
   * A parked message, and the operation it is delivered to.
   *
   * @param operation {@code namespace.name.operation}, or its queue when the context knows no
   *     receiver of it
   */
  public record Row(Parked parked, String operation) {}
}
