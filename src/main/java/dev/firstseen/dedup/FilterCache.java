package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The heap cache of per-key filters: least recently used keys go first once the cache holds more
 * than its byte budget. A changed filter is dirty until it is written back through {@link
 * Backing#write}, which happens when it is evicted and in {@link #flushAll()} (called before every
 * checkpoint barrier), so keyed state holds every bit set before a checkpoint. An evicted filter
 * leaves the cache at once and drops its pages; its object may stay in the dirty list, unflagged,
 * until the list is compacted or the next checkpoint.
 *
 * <p>After each checkpoint's flush, {@link #pack()} folds every filter of up to {@code
 * dedup.bloom.cache-pack-max-pages} pages into a {@link PackedFilter} in {@link PackedKeys}' arena.
 * {@link #probe} answers a duplicate from it; {@link #get} unpacks it. A new URL of a packed key
 * leaves it packed too ({@link #getUnlessPackedHolds}): the cache holds its fingerprint beside the
 * arena ({@link PackedInserts}) and inserts it into the key's filter when the key is unpacked, when
 * the cache evicts, or at the next checkpoint's flush, which then packs the key again. A key whose
 * new URL would add a class or pass {@link #MAX_HELD} held ones gets them into its filter and is
 * packed again at once, as due ({@link PackedFilter#isDue}): with the inserts its journal lacks,
 * for the next checkpoint's flush to write; a due key that gets there again is unpacked until that
 * checkpoint. Packed keys with no inserts held and not due had no new URL since the last
 * checkpoint, so eviction takes them before any filter, in their table's order (a due one is
 * written whole first).
 *
 * <p>Keyed state is written between checkpoints by eviction and by {@link #update}, for a filter
 * with {@link #JOURNAL_BATCH} inserts not in state. What a checkpoint holds is what state held at
 * its barrier, the flush before it included.
 *
 * <p>Not thread-safe: one instance per operator instance, used from the task thread.
 */
final class FilterCache {
    /*
     * The cache holds one entry per key, and a key of a few hundred URLs has about 800 bytes of
     * pages at 1e-4, so what the cache itself spends per key shows in bytes per URL (issue 14). A
     * LinkedHashMap spends a 40-byte entry and a table slot per key. Here the filters are their
     * own entries: an open-addressing table of filters (linear probing, deletion by backward
     * shift) finds them by key, and two fields in each filter chain them in recency order.
     */

    /** Where filters come from and go to: keyed state, under each filter's own key. */
    interface Backing {
        /** The filter of {@code key} as stored, or a new empty one if it has none. */
        KeyFilter load(Object key) throws Exception;

        /** Writes a dirty filter's metadata and dirty pages; returns the pages written. */
        int write(KeyFilter f) throws Exception;

        /**
         * Makes keyed state hold what a dirty filter holds, for a checkpoint: as {@link #write}, or
         * by appending its new inserts to its page journal; returns the pages written.
         */
        default int flush(KeyFilter f) throws Exception {
            return write(f);
        }

        /**
         * Inserts the fingerprints whose high halves {@code his} holds (its count at index 0, then
         * each) into {@code f}, in that order, under {@code f}'s key: new URLs of a packed key that
         * the cache held beside it ({@link PackedInserts}).
         */
        void insertAll(KeyFilter f, long[] his) throws Exception;
    }

    private final Backing backing;
    private final long budget;

    /** The most page slots of a key {@link #pack()} packs; 0 packs none. */
    private final int packMaxPages;

    /** Filters that are not packed, by key. */
    private KeyFilter[] table = new KeyFilter[1024];

    /** Filters in the table. */
    private int size;

    private final PackedKeys packed = new PackedKeys();

    /** New URLs of packed keys since the last checkpoint, not yet in their filters. */
    private final PackedInserts inserts = new PackedInserts(packed);

    /** Whether the last {@link #getUnlessPackedHolds} that answered null held a new URL. */
    private boolean heldNew;

    /** {@link #heldNewRate()}. */
    private double heldNewRate;

    /** The rate of a packed key's classes, from the walk that finds its newest class. */
    private final double[] classesRate = new double[1];

    /** Whether a key may be packed as due ({@link PackedFilter#isDue}) since the last flush. */
    private boolean anyDue;

    /** Whether {@link #writeWholeSoon} stopped at its budget with keys left to write whole. */
    private boolean wholeSoonLeft;

    /** The most {@link #bytes()} since the last {@link #takePeakBytes()}. */
    private long peak;

    /** Pages that packed keys hold (slots neither unloaded nor {@link KeyFilter#ABSENT}). */
    private int packedPages;

    /** The sizings of packed keys: a packed key holds its sizing's index here. */
    private final List<Object> sizings = new ArrayList<>();

    /** A job has one sizing or two; state written under other settings adds a few. */
    private static final int MAX_SIZINGS = 64;

    /** The least recently used filter and the most recently used one. */
    private KeyFilter oldest;

    private KeyFilter newest;

    /**
     * The filters changed since the last checkpoint, in the order they got dirty; a filter's {@link
     * KeyFilter#queued} flag says it is here, so that a record of a key that is already here costs
     * a field read, not a hash lookup. A filter that left the cache (evicted, or its state cleared)
     * is unflagged and skipped; the list drops it at the next checkpoint, or sooner when such
     * filters are most of it. A set spent a 40-byte entry and a table slot on each dirty key, most
     * keys between checkpoints.
     */
    private ArrayList<KeyFilter> dirty = new ArrayList<>();

    /** Flagged filters in {@link #dirty}. */
    private int queued;

    private long bytes;
    private long evictions;
    private long unpacks;
    private long duePacks;

    /** Filters {@link #pack()} left unpacked as hot, since the cache was created. */
    private long hotKept;

    private long earlyJournals;
    private long packedAnswers;

    FilterCache(Backing backing, long budgetBytes) {
        this(backing, budgetBytes, PackedFilter.MAX_SLOTS);
    }

    FilterCache(Backing backing, long budgetBytes, int packMaxPages) {
        this.backing = backing;
        this.budget = budgetBytes;
        this.packMaxPages = packMaxPages;
        packed.onMove(inserts);
    }

    /** The filter of {@code key}, loaded (or created) on a miss. */
    KeyFilter get(Object key) throws Exception {
        KeyFilter f = peek(key);
        return f != null ? f : load(key);
    }

    /** Loads (or creates) the filter of {@code key}, which the cache does not hold, and adds it. */
    private KeyFilter load(Object key) throws Exception {
        KeyFilter f = backing.load(key);
        put(f);
        bytes += f.bytes();
        markDirty(f);
        return f;
    }

    /**
     * Accounts for what happened to {@code f} since it had {@code bytesBefore} bytes (pages loaded
     * or set), marks it dirty if it is, and evicts other keys while the cache is over its budget.
     */
    void update(KeyFilter f, long bytesBefore) throws Exception {
        if (f.pendingCount() >= JOURNAL_BATCH) {
            backing.flush(f);
            earlyJournals++;
        }
        bytes += f.bytes() - bytesBefore;
        markDirty(f);
        if (budgetBytes() > budget) {
            evict(f);
        }
    }

    /**
     * The most inserts a cached filter keeps for its journal between checkpoints (a 2 KiB array):
     * with the next, keyed state gets them ({@link Backing#flush}). At 100,000 records/s a subtask
     * in the subtask simulation, the 108 keys too large to pack held 2.6 MB of such inserts before
     * each checkpoint. An element of 255 codes an entry in about 2 bits more than one of 1,023
     * (Rice code, {@link PageJournal}); batches of 255 instead of 1,023 lowered the simulation's
     * peak there from 3.26 to 3.20 B/URL, and neither its checkpoints nor those of the 50 M run
     * grew measurably.
     */
    static final int JOURNAL_BATCH = 255;

    /**
     * The bytes weighed against the budget: the filters, and the packed keys without the arena's
     * garbage, which a compaction reclaims (eviction compacts it once it is a quarter).
     */
    private long budgetBytes() {
        return bytes + packed.liveBytes() + inserts.bytes();
    }

    /** Puts {@code f} in the dirty list if it is dirty and not there yet. */
    private void markDirty(KeyFilter f) {
        if (!f.queued && f.isDirty()) {
            f.queued = true;
            dirty.add(f);
            queued++;
            bytes += DIRTY_ENTRY_BYTES;
        }
    }

    private void unmarkDirty(KeyFilter f) {
        if (f.queued) {
            f.queued = false;
            queued--;
            bytes -= DIRTY_ENTRY_BYTES;
            if (dirty.size() > 1024 && dirty.size() > 2 * queued) {
                // Mostly filters that left: drop them, so that the list does not keep the objects
                // of many evicted keys until the checkpoint (amortized, as it halves the list).
                dirty.removeIf(d -> !d.queued);
            }
        }
    }

    /**
     * A dirty-list slot with its share of the list's spare room. Counted while a key is in the
     * list: from its first change after a checkpoint to the next, or to its eviction. A key whose
     * inserts went to its page journal leaves the list at the checkpoint, though its pages stay
     * dirty until their next whole write.
     */
    private static final long DIRTY_ENTRY_BYTES = 6;

    /**
     * Evicts keys other than {@code keep} down to 90% of the budget: packed keys first, then the
     * least recently used filters.
     */
    private void evict(KeyFilter keep) throws Exception {
        // A packed key whose new URLs are held must not leave without them: unpack those first.
        // Their garbage waits for the pass's reclaim below, so that no compaction moves the keys
        // while their URLs are handed out.
        takeAllHeld((i, his) -> merge(unpackAt(i, false), his));
        long target = budget / 10 * 9;
        while (budgetBytes() > target && packed.size() > 0) {
            evictPacked();
        }
        // Once for the whole pass, not at each key, whose garbage the next one's would follow.
        packed.reclaim(bytes);
        packed.compactIfWasteful(4);
        KeyFilter next;
        for (KeyFilter f = oldest; budgetBytes() > target && f != null; f = next) {
            next = f.newer;
            if (f == keep) {
                continue;
            }
            long held = f.bytes(); // before the write-back, which drops the dirty-page set
            if (f.isDirty()) {
                backing.write(f);
            }
            unmarkDirty(f);
            delete(f);
            bytes -= held;
            f.release();
            evictions++;
        }
    }

    /** Evicts the next packed key from the hand on, writing it back first if it is dirty. */
    private void evictPacked() throws Exception {
        int i = packed.next();
        if (packed.isDirty(i)) {
            backing.write(packed.unpack(i, sizings)); // its journal goes into its pages
        }
        packedPages -= packed.loadedPages(i);
        packed.drop(i); // the pass reclaims the garbage once it is done
        evictions++;
    }

    /**
     * Packs every {@link KeyFilter#packable()} filter into a {@link PackedFilter}, except those
     * that got more than {@link #HOT_INSERTS} inserts since the last pack; returns how many. Called
     * after {@link #flushAll()}, when no filter holds inserts for the checkpoint.
     */
    int pack() {
        return pack(false);
    }

    /** {@link #pack()}, hot keys included: for the end of the input, when no more records come. */
    int packAll() {
        return pack(true);
    }

    private int pack(boolean hotToo) {
        // Packed a batch at a time, and added after: the arena sizes the chunk it starts for the
        // batch, and the heap holds at most a batch of packs beside their filters.
        List<KeyFilter> filters = new ArrayList<>();
        List<byte[]> packs = new ArrayList<>();
        long total = 0;
        int n = 0;
        KeyFilter next;
        for (KeyFilter f = oldest; f != null; f = next) {
            next = f.newer;
            boolean hot = !hotToo && f.recentInserts() > HOT_INSERTS;
            f.forgetRecentInserts();
            if (!f.packable() || f.tableSlots() > packMaxPages) {
                continue;
            }
            if (hot) {
                hotKept++;
                continue;
            }
            int sizing = sizingIndex(f.meta.sizing());
            if (sizing < 0) {
                continue;
            }
            byte[] p = PackedFilter.pack(f, sizing);
            filters.add(f);
            packs.add(p);
            total += p.length;
            if (total >= PACK_BATCH) {
                n += addPacks(filters, packs, total);
                total = 0;
            }
        }
        n += addPacks(filters, packs, total);
        // Keys unpacked since the last checkpoint left garbage; the heap after a checkpoint holds
        // little of it.
        packed.compactAfterPacking();
        return n;
    }

    /**
     * The bytes of packs {@link #pack()} makes before it adds them to the arena. A checkpoint
     * packed every key that changed before adding any: at 100,000 records/s a subtask in the
     * subtask simulation, the packs of the keys unpacked in an interval, 7 MB beside their filters.
     */
    private static final int PACK_BATCH = PackedKeys.MAX_CHUNK / 2;

    /**
     * Adds {@code packs} of {@code filters} (of {@code total} bytes) to the arena and drops the
     * filters that went in; empties both lists; returns how many went in.
     */
    private int addPacks(List<KeyFilter> filters, List<byte[]> packs, long total) {
        // Until they are added, the filters and their packs are both on the heap.
        peak = Math.max(peak, bytes() + total + 16L * packs.size());
        int n = 0;
        for (int i = 0; i < packs.size(); i++) {
            KeyFilter f = filters.get(i);
            byte[] p = packs.get(i);
            boolean added = packed.add(p, f.keyHash(), total);
            total -= p.length;
            if (!added) {
                continue;
            }
            delete(f);
            bytes -= f.bytes();
            packedPages += f.loadedPages();
            f.discard(); // nothing refers to it any more; its state is packed
            n++;
        }
        filters.clear();
        packs.clear();
        return n;
    }

    /** {@code sizing}'s index in {@link #sizings}, added if new; -1 if the list is full. */
    private int sizingIndex(Object sizing) {
        for (int i = 0; i < sizings.size(); i++) {
            if (sizings.get(i) == sizing) {
                return i;
            }
        }
        if (sizings.size() >= MAX_SIZINGS) {
            return -1;
        }
        sizings.add(sizing);
        return sizings.size() - 1;
    }

    /**
     * After a checkpoint: writes whole to keyed state ({@link Backing#write}) the filters whose
     * journal passed its bound at it ({@link KeyFilter#writeWholeSoon}), those held as objects,
     * then the packed ones one at a time in the arena's order, each packed again as it is written
     * with any new URLs held for it (the old packs' garbage reclaimed as in {@link #flushHeld}),
     * until {@code pageBudget} pages were written: at least one key, and every such key if the
     * budget is {@link Integer#MAX_VALUE}. {@link #wholeSoonLeft} says whether some are left for a
     * later call. Returns the keys written.
     */
    int writeWholeSoon(int pageBudget) throws Exception {
        int keys = 0;
        long pages = 0;
        wholeSoonLeft = false;
        for (KeyFilter f = oldest; f != null; f = f.newer) {
            if (f.wholeSoon()) {
                if (pages >= pageBudget) {
                    wholeSoonLeft = true;
                    return keys;
                }
                long before = f.bytes();
                pages += backing.write(f);
                bytes += f.bytes() - before;
                keys++;
            }
        }
        int[] positions = packed.wholeSoonPositions();
        if (positions.length > 0) {
            for (int pos : positions) {
                if (pages >= pageBudget) {
                    wholeSoonLeft = true;
                    break;
                }
                int hash = packed.hashAt(pos);
                int i = packed.slotAt(hash, pos);
                int chunk = packed.chunkOf(i);
                // Records between two calls may have held new URLs for it: they go in first, as
                // the flush's held keys' do.
                pages += repack(i, inserts.isEmpty() ? null : inserts.take(hash, pos), true);
                reclaimFlushed(chunk);
                keys++;
            }
            reclaimFlushed(Integer.MAX_VALUE);
        }
        return keys;
    }

    /** Whether the last {@link #writeWholeSoon} left keys to write whole for a later call. */
    boolean wholeSoonLeft() {
        return wholeSoonLeft;
    }

    /**
     * Makes keyed state hold every dirty filter ({@link Backing#flush}); returns the pages written.
     */
    long flushAll() throws Exception {
        notePeak();
        long n = inserts.isEmpty() && !anyDue ? 0 : flushHeld();
        for (KeyFilter f : dirty) {
            if (!f.queued) {
                continue; // left the cache since it was listed
            }
            f.queued = false;
            if (f.isDirty()) {
                long before = f.bytes();
                n += backing.flush(f);
                bytes += f.bytes() - before;
            }
        }
        bytes -= DIRTY_ENTRY_BYTES * queued;
        queued = 0;
        // A cleared list keeps its array, which between checkpoints would hold 4 bytes for every
        // key that was dirty at the last one; a new list holds none until keys change.
        if (dirty.size() > 64) {
            dirty = new ArrayList<>();
        } else {
            dirty.clear();
        }
        return n;
    }

    /**
     * Inserts every held new URL into its packed key's filter, makes keyed state hold the filter
     * ({@link Backing#flush}) and packs it again, one key at a time and in the arena's order: the
     * heap holds one of those filters as an object at a time, and the old packs' garbage lies in
     * the chunks gone through, which are copied out once it passes a {@link #FLUSH_GARBAGE_SHARE}th
     * of the cache, before the chunk the flush is at, so that no key it has yet to go through
     * moves. Returns the pages written.
     */
    private long flushHeld() throws Exception {
        // The garbage keys unpacked since the last checkpoint left first, wherever it lies: once
        // the flush has begun, it copies out only the chunks it went through.
        reclaimFlushed(Integer.MAX_VALUE);
        long[] n = {0};
        if (anyDue) {
            // Keys packed again as due since the last flush, with their pending inserts, whether
            // they hold URLs again or not, in the arena's order as below.
            anyDue = false;
            for (int pos : packed.duePositions()) {
                int hash = packed.hashAt(pos);
                int i = packed.slotAt(hash, pos);
                int chunk = packed.chunkOf(i);
                n[0] += repack(i, inserts.isEmpty() ? null : inserts.take(hash, pos), true);
                notePeak();
                reclaimFlushed(chunk);
            }
        }
        takeAllHeld(
                (i, his) -> {
                    int chunk = packed.chunkOf(i);
                    n[0] += repack(i, his, true);
                    notePeak();
                    reclaimFlushed(chunk);
                });
        // And what the last keys left, now that no key is to be gone through.
        reclaimFlushed(Integer.MAX_VALUE);
        return n[0];
    }

    /**
     * Inserts {@code his} (their count at index 0; null for none) into the filter of the packed key
     * in slot {@code i} and packs it again at the arena's end; its old pack is garbage, left for
     * the caller to reclaim. If {@code write}, or if the key has {@link #JOURNAL_BATCH} inserts
     * pending for its journal, keyed state gets the filter first ({@link Backing#flush}); otherwise
     * the key is packed as due ({@link PackedFilter#isDue}) with its pending inserts, for the next
     * checkpoint's flush to write. A filter that grew past what is packed, or that the arena cannot
     * take, stays as an object (in the dirty list if it was not written). Returns the pages
     * written.
     */
    private int repack(int i, long[] his, boolean write) throws Exception {
        KeyFilter f = packed.unpack(i, sizings);
        packedPages -= f.loadedPages();
        // The slot stays until the new pack replaces it: in the subtask simulation dropping it
        // first (a backward shift that hashes each key after it in its run, reading their keys'
        // bytes in the arena) and adding the new pack took 2.2% of the task thread.
        if (his != null) {
            backing.insertAll(f, his);
        }
        int n = 0;
        if (write || f.pendingCount() >= JOURNAL_BATCH) {
            n = backing.flush(f);
            write = true;
        }
        boolean packable = write ? f.packable() : f.packableWithPending();
        int sizing = packable && f.tableSlots() <= packMaxPages ? sizingIndex(f.meta.sizing()) : -1;
        byte[] p = sizing < 0 ? null : PackedFilter.pack(f, sizing, !write);
        if (p != null && packed.replace(i, p, packed.chunkTarget())) {
            packedPages += f.loadedPages();
            f.discard();
            anyDue |= !write;
        } else {
            if (p == null) {
                packed.drop(i);
            }
            put(f);
            bytes += f.bytes();
            if (!write) {
                markDirty(f);
            }
        }
        return n;
    }

    /** The flush's compaction of the chunks before chunk {@code below} ({@link #flushHeld}). */
    private void reclaimFlushed(int below) {
        packed.reclaimChunks(
                bytes + inserts.bytes(), FLUSH_GARBAGE_SHARE, FLUSH_CHUNK_WASTE, below);
    }

    /** What {@link #takeAllHeld} hands each key's held new URLs to. */
    private interface HeldSink {
        /** The key's slot in {@link #packed} and its held URLs (their count at index 0). */
        void accept(int slot, long[] his) throws Exception;
    }

    /**
     * Takes every packed key's held new URLs and hands them to {@code sink} with the key's slot, in
     * the arena's order ({@link PackedInserts#drain}).
     */
    private void takeAllHeld(HeldSink sink) throws Exception {
        inserts.drain((hash, pos, his) -> sink.accept(packed.slotAt(hash, pos), his));
    }

    /*
     * A flush's repacking leaves each held key's old pack as garbage and appends its new one. At
     * 1,000 records/s a subtask in the subtask simulation the keys an interval changed hold about
     * a fifth of the arena (the Zipf head's keys, of up to 16 pages, get most new URLs), and this
     * garbage was the heap's peak. So the flush goes through the held keys in the arena's order and
     * copies out the chunks it went through, those more than a 256th waste, whenever their garbage
     * passes a 512th of the cache: garbage stays small, and each chunk is copied about once a
     * flush, where reclaiming by copying the whole arena copied it a dozen times. What it cannot
     * copy out yet is the garbage of the chunk it is at, which the arena's chunk size bounds
     * (PackedKeys). (Until the twenty-sixth session any chunk could be copied once all garbage
     * passed a 64th, and keys not gone through yet moved; in the twenty-sixth, chunks more than a
     * 64th waste once theirs passed a 128th, with chunks of 1 MiB and each compaction a walk of
     * the arena's table: docs/design/state.md, *One subtask of a 10-billion-URL crawl*.) New
     * packs go to chunks of the arena's chunk size rather than one sized for all of them, whose
     * unused room would count at once.
     */
    private static final int FLUSH_GARBAGE_SHARE = 512;

    private static final int FLUSH_CHUNK_WASTE = 256;

    /**
     * The most heap the cache held at once since the last call, and starts again from now: {@link
     * #bytes()} now, after each key {@link #flushAll()} inserted held new URLs into, with the
     * filters {@link #pack()} packed beside their packs before they go into the arena, and the
     * arena and the held URLs each at its most since then ({@link PackedKeys#peak()}: a
     * compaction's copies beside the chunks it has yet to release, a table beside the one it
     * replaces; {@link PackedInserts#peak()}: old arrays beside grown ones) with the rest of the
     * cache as it is at the next of those moments or at this call. The dedup operator calls it
     * after every record (its gauge {@code filterCachePeakBytes}).
     */
    long takePeakBytes() {
        notePeak();
        long p = peak;
        peak = bytes();
        return p;
    }

    /**
     * Takes {@link #bytes()} into the peak, with the arena and the held URLs at their most since
     * the last call: an upper bound, since the two may have peaked at different moments, with the
     * rest of the cache as it is now (a compaction or a growing table changes only its own part).
     */
    private void notePeak() {
        long arena = packed.bytes();
        long held = inserts.bytes();
        peak = Math.max(peak, bytes + packed.peak().take(arena) + inserts.peak().take(held));
    }

    /** The cached filter of {@code key} (now the most recently used), or null; never loads. */
    KeyFilter peek(Object key) throws Exception {
        KeyFilter f = find(key.hashCode(), key, null);
        if (f != null) {
            return f;
        }
        int i = packed.slotOf(key);
        return i < 0 ? null : unpack(i, key);
    }

    /** {@link #probe}: the key is not packed (not cached, or cached as a filter). */
    static final int NOT_PACKED = -1;

    /**
     * Whether {@code key}'s filter might hold {@code fp}, answered from its packed form (1 yes, 0
     * no) so that a duplicate leaves it packed; {@link #NOT_PACKED} if the key is not packed, or if
     * {@code exactPagesOnly} and its filter is not exact mode's pages, and then the caller asks
     * {@link #get}. Changes nothing.
     */
    int probe(Object key, Fingerprint fp, boolean exactPagesOnly) {
        int i = packed.slotOf(key);
        if (i < 0) {
            return NOT_PACKED;
        }
        int answer = answerPacked(i, fp, exactPagesOnly);
        if (answer != 0 || inserts.isEmpty()) {
            return answer;
        }
        int width = (int) (packed.newestClass(i) >>> 32);
        return inserts.countUnlessHolds(key.hashCode(), packed.position(i), fp.hi, width) < 0
                ? 1
                : 0;
    }

    /**
     * {@link #get}, except for a packed key whose packed form can answer for {@code fp} ({@link
     * #probe}): then null, and the key stays packed. If its filter might hold {@code fp}, or its
     * held new URLs do, it is a duplicate; otherwise {@code fp} is new, and if the key's newest
     * class has room for it beside the held ones, the cache holds it as one more, to be inserted
     * into the filter later (the caller must treat it as inserted; {@link #heldNew()} tells which
     * of the two null means). If the key's newest class has no room for it, or it holds {@link
     * #MAX_HELD} already, the held URLs and this one go into the key's filter, and the key is
     * packed again as due, holding none, or if it was due already, stays an object until the next
     * checkpoint; the same null then. One search of the packed keys for both, as every record that
     * L1 does not answer comes here.
     */
    KeyFilter getUnlessPackedHolds(Object key, Fingerprint fp, boolean exactPagesOnly)
            throws Exception {
        return getUnlessPackedHolds(key, fp, exactPagesOnly, 0, 0);
    }

    /**
     * {@link #getUnlessPackedHolds(Object, Fingerprint, boolean)} for a record decided at {@code t}
     * in a job with {@code dedup.forget-after} {@code forgetAfter} (0 for none): a packed key whose
     * generations are due at {@code t} ({@link PackedFilter#generationsDue}) is unpacked, as only
     * its filter can forget a generation or start one.
     */
    KeyFilter getUnlessPackedHolds(
            Object key, Fingerprint fp, boolean exactPagesOnly, long t, long forgetAfter)
            throws Exception {
        heldNew = false;
        KeyFilter f = find(key.hashCode(), key, null);
        if (f != null) {
            return f;
        }
        int i = packed.slotOf(key);
        if (i < 0) {
            return load(key);
        }
        if (forgetAfter > 0 && packed.generationsDue(i, t, forgetAfter)) {
            return unpack(i, key);
        }
        int answer = answerPacked(i, fp, exactPagesOnly);
        if (answer == 1) {
            return null;
        }
        if (answer == NOT_PACKED) {
            return unpack(i, key);
        }
        long newest = packed.newestClass(i, classesRate);
        int hash = key.hashCode();
        int pos = packed.position(i);
        int held = inserts.countUnlessHolds(hash, pos, fp.hi, (int) (newest >>> 32));
        if (held < 0) {
            return null;
        }
        heldNew = true;
        heldNewRate =
                exactPagesOnly
                        ? 0
                        : classesRate[0] + Math.scalb((double) held, -(int) (newest >>> 32));
        if ((int) newest <= held || held >= MAX_HELD) {
            long[] his = held == 0 ? new long[2] : inserts.take(hash, pos);
            his = Arrays.copyOf(his, held + 2);
            his[0] = held + 1;
            his[held + 1] = fp.hi;
            if (packed.isDue(i)) { // packed again since the last checkpoint already: a hot key
                merge(unpackAt(i, true), his);
            } else {
                duePacks++;
                repack(i, his, false);
                packed.reclaim(bytes + inserts.bytes());
            }
        } else {
            inserts.add(hash, pos, fp.hi, (int) (newest >>> 32));
        }
        if (budgetBytes() > budget) {
            evict(null);
        }
        return null;
    }

    /**
     * The most new URLs held for one packed key; with its next one they go into its filter. A
     * record of a key with held URLs scans them all.
     */
    static final int MAX_HELD = 64;

    /**
     * Inserts since the last pack past which {@link #pack()} leaves a filter unpacked: a packed key
     * that got as many new URLs would be unpacked by them again before the next checkpoint, after
     * holding {@link #MAX_HELD} twice and being packed again as due in between.
     */
    static final int HOT_INSERTS = 2 * MAX_HELD;

    /*
     * Until the twenty-eighth session a 65th new URL, or one that would add a class, unpacked its
     * key into objects until the next checkpoint. At 100,000 records/s a subtask in the subtask
     * simulation (10 M URLs, 100,000 Zipf keys, 1e-4) that left 583 keys as objects before each
     * checkpoint, 7.0 MB against the 3.8 MB of their packs; with the inserts the large keys kept
     * for their journals (2.6 MB) and the held URLs' table (3.1 MB in 12-byte slots) the heap
     * peaked at 3.62 B/URL. Packed again at once as due, such a key costs its pack, its pending
     * inserts (8 bytes each) and the garbage of its old pack. Packing hot keys again every 64 new
     * URLs copied the arena whole about six times an interval there (their old packs lie spread
     * over the chunks the last flush wrote) and on the 50 M stream, where every key is hot, 12 GB
     * a subtask in 70 s; packing a key again once an interval and unpacking it the second time
     * peaked alike (3.26 against 3.25) for less than half the copying. Writing such keys to state
     * instead of keeping their inserts pending (3.19) made the checkpoint larger at 50 M (2.66 and
     * 2.78 B/URL against 2.51 and 2.65: a journal element every 64 URLs instead of one a
     * checkpoint) and was withdrawn. Holding 16, 32 or 128 URLs a key instead of 64 peaked alike
     * or higher: the held table is sized by the URLs of every key an interval touches, one to
     * three for most of them. docs/design/state.md, One subtask of a 10-billion-URL crawl.
     *
     * Since the thirty-fifth session a key that got more than HOT_INSERTS new URLs in an interval
     * is not packed at its end: packed, it would most likely go the whole way again (three copies
     * of its pages, a walk of its held URLs for each of its first 128 records) and end the next
     * interval an object all the same. In the simulation at 100,000 records/s a subtask the arena
     * copied 0.56 GB instead of 1.8 GB over the run, and the heap peaked alike; leaving keys of
     * more than MAX_HELD unpacked copied 0.15 GB but raised the peak of the last ten intervals from
     * 3.77 to 3.85 B/URL: keys of 65 to 128 new URLs an interval end it packed as due, compactly.
     */

    /** Whether the last {@link #getUnlessPackedHolds} that answered null held a new URL. */
    boolean heldNew() {
        return heldNew;
    }

    /**
     * {@link FingerprintFilterMath#rate} of the key whose new URL the last {@link
     * #getUnlessPackedHolds} held, with the URLs held before it: the rate that URL met. 0 if it was
     * called for exact mode's pages, which the operator does not count.
     */
    double heldNewRate() {
        return heldNewRate;
    }

    /** {@link #probe}'s answer for the packed key in slot {@code i}. */
    private int answerPacked(int i, Fingerprint fp, boolean exactPagesOnly) {
        if (exactPagesOnly && !packed.isExactPages(i)) {
            return NOT_PACKED;
        }
        int answer = packed.mightContain(i, fp);
        if (answer == PackedFilter.UNKNOWN) {
            return NOT_PACKED; // a page to load from state: the filter's to read
        }
        packedAnswers++;
        return answer;
    }

    /** True if {@code f} is still cached (it is then the most recently used); allocates nothing. */
    boolean touch(KeyFilter f) {
        return find(f.keyHash(), null, f) == f;
    }

    /**
     * The filter in {@code hash}'s probe run that is {@code same} or has {@code key}, now the most
     * recently used; null if there is none. Packed keys are not looked at.
     */
    private KeyFilter find(int hash, Object key, KeyFilter same) {
        KeyFilter[] t = table;
        int mask = t.length - 1;
        for (int i = slot(hash, mask); ; i = (i + 1) & mask) {
            KeyFilter f = t[i];
            if (f == null) {
                return null;
            }
            if (f == same || (key != null && f.hasKey(key))) {
                if (f != newest) {
                    unlink(f);
                    append(f);
                }
                return f;
            }
        }
    }

    /**
     * The packed key {@code key} in slot {@code i} as a filter, now the most recently used, with
     * the new URLs held for it inserted.
     */
    private KeyFilter unpack(int i, Object key) throws Exception {
        // Taken first: unpacking may compact the arena, which moves keys.
        long[] his = inserts.isEmpty() ? null : inserts.take(key.hashCode(), packed.position(i));
        KeyFilter f = unpackAt(i, true);
        if (his != null) {
            merge(f, his);
        }
        return f;
    }

    /**
     * The packed key in slot {@code i} as a filter, now the most recently used; its packed bytes
     * are garbage, which a compaction reclaims now if {@code reclaim} and the garbage calls for it.
     */
    private KeyFilter unpackAt(int i, boolean reclaim) {
        boolean due = packed.isDue(i);
        KeyFilter f = packed.unpack(i, sizings);
        packedPages -= f.loadedPages();
        if (reclaim) {
            packed.remove(i, bytes);
        } else {
            packed.drop(i);
        }
        unpacks++;
        put(f);
        bytes += f.bytes();
        if (due) {
            markDirty(f); // what keyed state lacks is written at the next checkpoint
        }
        return f;
    }

    /** Inserts a key's held new URLs into its filter, which is cached. */
    private void merge(KeyFilter f, long[] his) throws Exception {
        long before = f.bytes();
        backing.insertAll(f, his);
        bytes += f.bytes() - before;
        markDirty(f);
    }

    /** Drops {@code key}'s filter without writing it (its state was cleared). */
    void remove(Object key) throws Exception {
        int i = inserts.isEmpty() ? -1 : packed.slotOf(key);
        if (i >= 0) {
            inserts.take(key.hashCode(), packed.position(i)); // nothing of the key is kept
        }
        KeyFilter f = peek(key);
        if (f != null) {
            delete(f);
            unmarkDirty(f);
            bytes -= f.bytes();
            f.discard();
        }
    }

    /** The byte budget past which least recently used keys are evicted. */
    long budget() {
        return budget;
    }

    /**
     * Heap held by the cached filters, as {@link KeyFilter#bytes()} counts it, and by the packed
     * keys' arena and table.
     */
    long bytes() {
        return bytes + packed.bytes() + inserts.bytes();
    }

    /** Keys cached, packed ones included. */
    int keys() {
        return size + packed.size();
    }

    /** Keys held as {@link PackedFilter}s. */
    int packedKeys() {
        return packed.size();
    }

    /**
     * What the cache's bytes are made of: keys held as objects (their pages included) and the arena
     * of packed keys (its garbage and table included), for the subtask simulation.
     */
    String composition() {
        return String.format(
                Locale.ROOT,
                "%,d keys as objects holding %,d B (%,d of them changed since the last checkpoint),"
                        + " %,d packed in an arena of %,d B (%,d B of them live), %,d new URLs of"
                        + " %,d packed keys held in %,d B",
                size,
                bytes,
                queued,
                packed.size(),
                packed.bytes(),
                packed.liveBytes(),
                inserts.size(),
                inserts.keys(),
                inserts.bytes());
    }

    /** The packed keys' arena ({@link PackedKeys}): compactions, bytes copied, time taken. */
    String arenaSummary() {
        return String.format(
                Locale.ROOT,
                "%d arena compactions copied %d bytes in %d ms; %d keys packed again as due, %d"
                        + " left unpacked as hot, %d journal batches written between checkpoints",
                packed.compactions(),
                packed.compactedBytes(),
                packed.compactionNanos() / 1_000_000,
                duePacks,
                hotKept,
                earlyJournals);
    }

    /** Packed keys unpacked by a record of theirs since the cache was created. */
    long unpacks() {
        return unpacks;
    }

    /**
     * Packed keys packed again as due ({@link PackedFilter#isDue}) by a new URL that would add a
     * class or pass {@link #MAX_HELD} held ones, since the cache was created.
     */
    long duePacks() {
        return duePacks;
    }

    /**
     * Times {@link #pack()} left a filter unpacked because it got more than {@link #HOT_INSERTS}
     * inserts since the pack before, since the cache was created.
     */
    long hotKept() {
        return hotKept;
    }

    /**
     * Times a cached filter's {@link #JOURNAL_BATCH} inserts went to keyed state between
     * checkpoints (a journal element, or its pages written whole if its journal had no room), since
     * the cache was created.
     */
    long earlyJournals() {
        return earlyJournals;
    }

    /** New URLs of packed keys held beside them since the cache was created. */
    long heldInserts() {
        return inserts.added();
    }

    /** {@link #probe}s answered by a packed key since the cache was created. */
    long packedAnswers() {
        return packedAnswers;
    }

    int dirtyKeys() {
        return queued;
    }

    long evictions() {
        return evictions;
    }

    /** Pages held on the heap. */
    long pages() {
        long n = 0;
        for (KeyFilter f = oldest; f != null; f = f.newer) {
            n += f.loadedPages();
        }
        return n + packedPages;
    }

    /** Bytes of the pages alone, without page tables and per-key objects (walks every page). */
    long pageBytes() {
        long n = 0;
        for (KeyFilter f = oldest; f != null; f = f.newer) {
            n += f.pageBytes();
        }
        return n + packed.pageBytes();
    }

    /** The cached filters that are not packed, least recently used first (for tests). */
    List<KeyFilter> filters() {
        List<KeyFilter> all = new ArrayList<>(size);
        for (KeyFilter f = oldest; f != null; f = f.newer) {
            all.add(f);
        }
        return all;
    }

    /** Adds a filter whose key is not in the table, as the most recently used. */
    private void put(KeyFilter f) {
        if (3 * (size + 1) > 2 * table.length) {
            rehash(table.length * 2);
        }
        insertSlot(table, f);
        size++;
        append(f);
    }

    /** Takes a filter out of the table and the recency list. */
    private void delete(KeyFilter f) {
        deleteAt(indexOf(f));
        unlink(f);
    }

    /** The table slot of {@code f}, which is in the table. */
    private int indexOf(KeyFilter f) {
        KeyFilter[] t = table;
        int mask = t.length - 1;
        int i = slot(f.keyHash(), mask);
        while (t[i] != f) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Empties table slot {@code i}. */
    private void deleteAt(int i) {
        KeyFilter[] t = table;
        int mask = t.length - 1;
        // Backward shift: move later entries of the probe run into the hole they would have
        // probed past, so that lookups need no tombstones.
        for (int j = (i + 1) & mask; t[j] != null; j = (j + 1) & mask) {
            int home = slot(t[j].keyHash(), mask);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                t[i] = t[j];
                i = j;
            }
        }
        t[i] = null;
        size--;
        if (size < table.length / 8 && table.length > 1024) {
            rehash(table.length / 2);
        }
    }

    private void rehash(int capacity) {
        KeyFilter[] t = new KeyFilter[capacity];
        for (KeyFilter e : table) {
            if (e != null) {
                insertSlot(t, e);
            }
        }
        table = t;
    }

    private static void insertSlot(KeyFilter[] t, KeyFilter e) {
        int mask = t.length - 1;
        int i = slot(e.keyHash(), mask);
        while (t[i] != null) {
            i = (i + 1) & mask;
        }
        t[i] = e;
    }

    /** A table slot for a key's {@code hashCode()}; {@link PackedKeys}' table uses it too. */
    static int slot(int hashCode, int mask) {
        int h = hashCode;
        h = (h ^ (h >>> 16)) * 0x9E3779B9; // spreads hash codes that differ in few bits
        return (h ^ (h >>> 15)) & mask;
    }

    private void append(KeyFilter f) {
        f.older = newest;
        f.newer = null;
        if (newest == null) {
            oldest = f;
        } else {
            newest.newer = f;
        }
        newest = f;
    }

    private void unlink(KeyFilter f) {
        if (f.older == null) {
            oldest = f.newer;
        } else {
            f.older.newer = f.newer;
        }
        if (f.newer == null) {
            newest = f.older;
        } else {
            f.newer.older = f.older;
        }
        f.older = null;
        f.newer = null;
    }
}
