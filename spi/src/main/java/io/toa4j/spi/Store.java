package io.toa4j.spi;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One component's records on a storage.
 *
 * <p>Thread-safe: any number of threads may read and commit at once. A commit is atomic and, once
 * it answers {@link Outcome#COMMITTED}, durable as the storage promises.
 */
public interface Store {
  /** The record with this id, if it was ever written. */
  Optional<StoredRecord> read(String id);

  /**
   * Records in the order they were created (ties by id), skipping {@code omit} and answering at
   * most {@code limit}.
   */
  default List<StoredRecord> page(long limit, long omit) {
    return find(Selection.page(limit, omit));
  }

  /**
   * The records the selection matches, in its order: its window of at most {@code limit} after
   * {@code omit}. The criteria and the order are applied by the storage to the records as stored, a
   * whole scan where nothing indexes them.
   */
  List<StoredRecord> find(Selection selection);

  /**
   * Applies the write if the record is still at its expected version.
   *
   * @return {@link Outcome#COMMITTED}; {@link Outcome#CONFLICT} when another write got there first;
   *     {@link Outcome#DUPLICATE} when the write's inbox entry names a call already answered and
   *     not forgotten at the time of the write (its record's {@code updated}): its answer may have
   *     expired, its record of being answered has not. Nothing at all is written unless COMMITTED.
   */
  Outcome commit(Write write);

  /**
   * Removes the record if it is still at this version (compare-and-swap), for the runtime's own
   * stores whose records end (a mark whose work is done); a component's records are never removed.
   *
   * @return whether it was removed: false when it is at another version or does not exist
   */
  boolean remove(String id, long version);

  /**
   * The inbox entry recorded for a call, if it is recorded and not forgotten by {@code now}: with
   * its answer while the answer has not expired by {@code now} ({@link InboxEntry#at(long)}), and
   * always when it was answered, the fingerprint of the request it answered and the record it
   * wrote.
   *
   * @param now epoch milliseconds
   */
  Optional<InboxEntry> recorded(String identity, long now);

  /**
   * The inbox entry recorded for a call and the record with this id, as {@link #recorded(String,
   * long)} and {@link #read(String)} answer them: what a call of an operation that declares {@code
   * once} on a named record needs before it runs. A storage on a server answers both in one round
   * trip; the two need not be one snapshot.
   *
   * @param now epoch milliseconds
   */
  default Reading read(String id, String identity, long now) {
    return new Reading(recorded(identity, now), read(id));
  }

  /**
   * Keeps the inbox about one window of answers and one of records whatever the load: drops the
   * answers expired by {@code now} from their entries, keeping the rest of each entry until it is
   * forgotten, and removes the entries forgotten by {@code now}; at most {@code limit} entries of
   * each.
   *
   * @return how many entries were changed or removed
   */
  int purgeInbox(long now, int limit);

  /**
   * Outbox entries not yet marked published, oldest first, at most {@code limit}, each with its
   * change and its tasks as committed. Entries are never dropped before they are marked, whatever
   * their age.
   */
  List<OutboxEntry> unpublished(int limit);

  /**
   * How many outbox entries are not yet marked published, claimed or not: one indexed count, with
   * no limit, so that a metrics scrape may ask it without reading the entries.
   */
  long unpublishedCount();

  /**
   * Takes the publication of at most {@code limit} unpublished entries, oldest first: those whose
   * claim ended by {@code now}, claimed now until {@code until}. Two callers, in one process or in
   * several, never hold a claim on the same entry at once; an entry whose claimant died is taken by
   * the next sweep after its claim ends.
   */
  List<OutboxEntry> claim(int limit, long now, long until);

  /**
   * Gives back claims its caller holds and cannot use: each entry still unpublished and still
   * claimed until exactly its {@link OutboxEntry#claimedUntil()} (so by the caller, whose claim has
   * not been taken over) is left claimed until {@code now}, for the next sweep of any process to
   * take. What a process calls when it could not publish entries it claimed because the bus is out
   * of reach, so that another process publishes them without waiting for the claim to end. Entries
   * published, claimed by another, or unknown are left as they are. This default gives nothing
   * back: the claims then end by themselves.
   */
  default void release(Collection<OutboxEntry> entries, long now) {}

  /** Marks outbox entries published at the given time; unknown ids are ignored. */
  void published(Collection<String> ids, long at);

  /**
   * The newest outbox entries, published or not, newest first (by id), at most {@code limit}: what
   * an operator chooses from to deliver again. A published entry is there until it is purged.
   */
  List<RecentEntry> recent(int limit);

  /**
   * Marks published entries unpublished, their claim ended at {@code now}, so that the next sweep
   * publishes them again, under the identities they had: a redelivery, durable once this returns.
   * An entry not yet published is left as it is, since it is published anyway; unknown ids are
   * ignored. Atomic: all the entries are marked, or none.
   *
   * @return how many of the ids name an entry of this store, published or not
   */
  int republish(Collection<String> ids, long now);

  /**
   * Removes at most {@code limit} entries marked published before the given time.
   *
   * @return how many were removed
   */
  int purgePublished(long before, int limit);
}
