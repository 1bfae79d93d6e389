package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.Ascii;
import dev.firstseen.dedup.internal.Murmur3;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;

/**
 * The heap copy of one key's filter, a Bloom filter or a compressed-fingerprint filter: its
 * metadata and the pages loaded so far. Pages are loaded on first touch; a page missing from state
 * is empty (all zeros, no fingerprints) and costs no memory until something is put in it. Dirty
 * pages and metadata are written back by {@link DedupOperator}.
 */
final class KeyFilter {
    /** Marks a page that was looked up and is not in state (all bits zero). */
    static final byte[] ABSENT = new byte[0];

    private static final byte[][] NO_SLOTS = new byte[0][];

    /**
     * The partition key: an ASCII string's bytes (domains and hosts are ASCII once IDNA has made
     * them so), else the key object. Bytes save the String object, 24 of a cached key's bytes.
     */
    private final Object key;

    final FilterMeta meta;
    boolean metaDirty;

    /**
     * Every layer's page slots in one array, layer 0 first: layer {@code l} starts at the sum of
     * the page counts of the layers before it. Only the newest layer (a fingerprint class that
     * splits) changes its page count, and it sits at the end, so the table grows by copying. One
     * array instead of one per layer saves a header per layer on every cached key. A table of one
     * slot, which most keys of a long-tailed crawl have (one class, one page), is not allocated:
     * this field then holds the slot's content itself (null until loaded, {@link #ABSENT}, or the
     * page), which saves 24 bytes on such a key.
     */
    private Object slots;

    /**
     * Dirty slots, a bit each; null while the filter is clean. A key whose pages were journaled
     * keeps its dirty bits between checkpoints (its stored pages are those of its last whole
     * write), so on a key of one slot this is the shared {@link #LONE_DIRTY}, which is never
     * changed: its only bit is set.
     */
    private long[] dirty;

    private static final long[] LONE_DIRTY = {1L};

    private long bytes;

    /** The cache's least-recently-used list (see {@link FilterCache}). */
    KeyFilter older;

    /** In the cache's list of filters to flush at the next checkpoint (see {@link FilterCache}). */
    boolean queued;

    KeyFilter newer;

    /** Exact mode's rebuild of this filter in progress, or null. */
    private Rebuild rebuild;

    /**
     * Bit {@code l} set: layer {@code l} was created while this copy was cached (a new key, a grown
     * layer, a rebuilt filter), so every page of it that state holds came from here and a page
     * missing from the table is known to be empty. Such a page costs no state read, which for
     * RocksDB is a miss, the dearest lookup (memtable and every level). Layers past 31 are read.
     */
    private int createdHere;

    /**
     * The high halves of the fingerprints inserted since the last write to state, in order, after
     * their count in element 0 (a field of its own would make every cached key 8 bytes larger):
     * what the next checkpoint appends to the key's {@link PageJournal}. Null while there are none.
     */
    private long[] pending;

    /** Fingerprints the key's stored journal holds (inserted since its pages were last written). */
    private int journaled;

    /**
     * {@link #WHOLE_SOON}, {@link #PAST_BOUND} and {@link #STORED_JOURNAL_FLAG}: one byte for three
     * flags, which keeps a cached key at 72 bytes of object.
     */
    private byte journalFlags;

    /** See {@link #writeWholeSoon}. */
    private static final byte WHOLE_SOON = 1;

    /**
     * A batch between checkpoints was journaled past the journal's bound ({@link
     * #journaledPastBound}); the next checkpoint's flush has the key written whole after it.
     */
    private static final byte PAST_BOUND = 2;

    /** See {@link #storedJournalFlag}. */
    private static final byte STORED_JOURNAL_FLAG = 4;

    /**
     * The next write must write the dirty pages whole: a key not in state yet, a Bloom filter, a
     * removal since the last whole write, more inserts than a journal may hold, journals off.
     */
    private boolean wholeDue;

    /**
     * Inserts since {@link FilterCache#pack} last passed this filter, up to 65,535: a key that got
     * more than {@link FilterCache#HOT_INSERTS} in an interval stays an object at the next pack.
     */
    private char recentInserts;

    /**
     * The last this many of {@link #pending} are in the newest class's counts but not yet in its
     * pages: appends to page tails put off until {@link #MAX_DEFERRED} of them, a merge, a split, a
     * new class or anything that reads the pages. {@link #bytes} already counts what they will add,
     * which is exact for an append, so applying them changes no byte count anyone holds.
     */
    private byte deferred;

    /** What the {@link #deferred} inserts add to {@link #bytes}, counted as they came. */
    private int deferredBytes;

    /**
     * The most inserts a filter puts off ({@link #deferred}): on the 2 M stream, with a key of
     * about one page, 16 appends of that page's tail cost one copy of it instead of 16, and a
     * lookup compares at most 16 more prefixes.
     */
    static final int MAX_DEFERRED = 16;

    /**
     * The most fingerprints a key's journal holds (512 KB): a key loaded from state inserts its
     * journal at once, so this bounds that pause: 52 ms for a key of 262,144 fingerprints in {@code
     * PageJournalBenchmark} (docs/jmh-page-journal.txt).
     */
    static final int MAX_JOURNAL = 1 << 16;

    KeyFilter(Object key, FilterMeta meta, boolean isNew) {
        this.key =
                key instanceof String k && Ascii.isAscii(k)
                        ? k.getBytes(StandardCharsets.US_ASCII)
                        : key;
        this.meta = meta;
        this.metaDirty = isNew;
        this.createdHere = isNew ? -1 : 0;
        this.wholeDue = isNew || !meta.isFingerprints();
        int n = slotCount(meta.layerCount());
        this.slots = n == 1 ? null : new byte[n][];
        this.bytes = tableBytesOf(slots);
    }

    /** A filter with the page table {@code slots} as it stands (see {@link #unpacked}). */
    private KeyFilter(byte[] key, FilterMeta meta, Object slots) {
        this.key = key;
        this.meta = meta;
        this.slots = slots;
    }

    /**
     * True if {@link PackedFilter} can hold this filter whole: a compressed-fingerprint filter with
     * an ASCII key and nothing pending for the next checkpoint (not in the cache's dirty list, no
     * inserts to journal). Its pages and metadata may still differ from their stored versions under
     * a journal: the packed form keeps its dirty bits.
     */
    boolean packable() {
        return !queued && pending == null && packableWithPending();
    }

    /**
     * {@link #packable()}, except that the filter may have inserts pending for its journal and be
     * in the cache's dirty list: {@link PackedFilter} keeps the pending inserts, and the cache must
     * make keyed state hold them at the next checkpoint (a key packed again as due, {@link
     * FilterCache#getUnlessPackedHolds}).
     */
    boolean packableWithPending() {
        return meta.isFingerprints()
                && !meta.journal
                && key instanceof byte[]
                && slots != NO_SLOTS
                && slotCount() <= PackedFilter.MAX_SLOTS
                && rebuild == null;
    }

    /** The inserts pending for the journal: their count at index 0, then each; null if none. */
    long[] pending() {
        return pending;
    }

    /** Gives back the pending inserts {@link #pending()} returned, for an unpacked filter. */
    void restorePending(long[] p) {
        applyDeferred();
        dropPending();
        pending = p;
        bytes += arrayBytes(8 * p.length);
    }

    /**
     * Inserts since the last {@link #forgetRecentInserts()} (or since this object was made), up to
     * 65,535.
     */
    int recentInserts() {
        return recentInserts;
    }

    void forgetRecentInserts() {
        recentInserts = 0;
    }

    /** The key's bytes, for a {@link #packable()} filter. */
    byte[] keyBytes() {
        return (byte[]) key;
    }

    /** Slots in the page table, for {@link PackedFilter}. */
    int tableSlots() {
        applyDeferred();
        return slotCount();
    }

    /** Slot {@code i}'s content: null (not loaded), {@link #ABSENT} or a page. */
    byte[] slotContent(int i) {
        applyDeferred();
        return slot(i);
    }

    /** The dirty-slot bits: null while clean; {@link #loneDirty()} for a one-slot key's. */
    long[] dirtyBits() {
        return dirty;
    }

    boolean loneDirty() {
        return dirty == LONE_DIRTY;
    }

    boolean wholeDue() {
        return wholeDue;
    }

    int createdHere() {
        return createdHere;
    }

    /**
     * A filter as {@link PackedFilter} kept it; the inverse of the getters above. {@code slots} is
     * a page table, or for one slot its content; {@code dirty} the dirty-slot bits, or null.
     */
    static KeyFilter unpacked(
            byte[] key,
            FilterMeta meta,
            Object slots,
            long[] dirty,
            boolean loneDirty,
            boolean metaDirty,
            boolean wholeDue,
            int createdHere,
            int journaled) {
        KeyFilter f = new KeyFilter(key, meta, slots);
        long n = tableBytesOf(slots);
        for (int i = 0, end = f.slotCount(); i < end; i++) {
            byte[] p = f.slot(i);
            n += p == null || p == ABSENT ? 0 : arrayBytes(p.length);
        }
        f.bytes = n;
        f.metaDirty = metaDirty;
        f.dirty = loneDirty ? LONE_DIRTY : dirty;
        f.wholeDue = wholeDue;
        f.createdHere = createdHere;
        f.journaled = journaled;
        return f;
    }

    /** The partition key, as Flink's keyed state takes it (a new String if kept as bytes). */
    Object key() {
        return key instanceof byte[] b ? new String(b, StandardCharsets.US_ASCII) : key;
    }

    /** True if this is {@code k}'s filter; allocates nothing. */
    boolean hasKey(Object k) {
        if (!(key instanceof byte[] b)) {
            return key.equals(k);
        }
        if (!(k instanceof String s) || s.length() != b.length) {
            return false;
        }
        for (int i = 0; i < b.length; i++) {
            if (s.charAt(i) != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** The key's {@code hashCode()}, equal to the String's when kept as bytes. */
    int keyHash() {
        if (!(key instanceof byte[] b)) {
            return key.hashCode();
        }
        int h = 0;
        for (byte c : b) {
            h = 31 * h + c;
        }
        return h;
    }

    /** Slots of a table for the first {@code layers} layers (room to split in the last one). */
    private int slotCount(int layers) {
        if (layers == 0) {
            return 0;
        }
        int last = layers - 1;
        return base(last)
                + (meta.isFingerprints() ? tableSize(meta.pages(last)) : meta.layer(last).pages);
    }

    /** The first slot of layer {@code layer}. */
    private int base(int layer) {
        int n = 0;
        for (int l = 0; l < layer; l++) {
            n += pageCount(l);
        }
        return n;
    }

    private int pageCount(int layer) {
        return meta.isFingerprints() ? meta.pages(layer) : meta.layer(layer).pages;
    }

    /** True if any layer may hold {@code fp}; false means it was certainly never inserted. */
    boolean mightContain(Fingerprint fp, PageSource source) throws Exception {
        if (meta.isFingerprints()) {
            // Pages first: a duplicate that reaches the filter is most often there, and the
            // put-off inserts are at most the last 16.
            return findClass(fp, source) >= 0 || deferredHolds(fp);
        }
        int last = meta.layerCount() - 1;
        int base = base(last);
        for (int layer = last; layer >= 0; layer--) {
            BloomLayer g = meta.layer(layer);
            if (layer < last) {
                base -= g.pages;
            }
            byte[] p = page(layer, base, BlockedBloom.page(fp, layer, g), source);
            if (p != ABSENT && BlockedBloom.mightContain(fp, layer, g, p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inserts {@code fp} into the newest layer, first adding a layer if that one is full and the
     * filter can still grow (see {@link FilterMeta#grow()}). Returns true if a layer was added.
     * While a rebuild is in progress a Bloom filter does not grow (its next form is being built)
     * and {@code fp} goes to the new layer too.
     */
    boolean insert(Fingerprint fp, PageSource source) throws Exception {
        if (recentInserts < Character.MAX_VALUE) {
            recentInserts++;
        }
        if (meta.isFingerprints()) {
            // Only an insert noted for the journal can be put off: it waits in the pending list.
            boolean tracked = !wholeDue && pendingCount() < MAX_JOURNAL;
            boolean grew = insertFingerprint(fp, tracked, source);
            if (!tracked) {
                track(fp.hi, grew);
            }
            return grew;
        }
        int layer = meta.layerCount() - 1;
        boolean grew = false;
        if (rebuild != null) {
            if (rebuild.cursor != null) { // before its scan starts, the scan will read fp
                long before = rebuild.bytes;
                rebuild.put(fp);
                rebuild.added++;
                bytes += rebuild.bytes - before;
            }
        } else if (meta.layer(layer).isFull() && !meta.saturated) {
            int next = grow();
            if (next >= 0) {
                layer = next;
                grew = true;
            }
        }
        BloomLayer g = meta.layer(layer);
        byte[] p = pageForWrite(layer, base(layer), BlockedBloom.page(fp, layer, g), source);
        BlockedBloom.put(fp, layer, g, p);
        g.count++;
        metaDirty = true;
        return grew;
    }

    /** The newest class holding {@code fp}'s prefix, or -1. */
    private int findClass(Fingerprint fp, PageSource source) throws Exception {
        int last = meta.classCount() - 1;
        int base = base(last);
        for (int c = last; c >= 0; c--) {
            if (c < last) {
                base -= meta.pages(c);
            }
            long v = meta.prefix(c, fp);
            int index = meta.page(c, v);
            byte[] p = page(c, base, index, source);
            if (p == ABSENT) {
                continue;
            }
            int s = meta.suffixBits(c, index);
            if (FingerprintPage.contains(p, s, meta.suffix(c, v, s))) {
                return c;
            }
        }
        return -1;
    }

    /** True if one of the {@link #deferred} inserts has {@code fp}'s prefix in the newest class. */
    private boolean deferredHolds(Fingerprint fp) {
        if (deferred == 0) {
            return false;
        }
        long[] p = pending;
        int n = (int) p[0];
        int shift = 64 - meta.width(meta.classCount() - 1);
        for (int i = n - deferred + 1; i <= n; i++) {
            if (((p[i] ^ fp.hi) >>> shift) == 0) { // bit 0, the class-break flag, is not read
                return true;
            }
        }
        return false;
    }

    /**
     * Inserts {@code fp} into class {@code c}, the newest, and notes it for the journal ({@link
     * #track}, with {@code grew}): puts it off if its page's tail has room for it beside those put
     * off already, else applies those and inserts it now, as {@link #rewrite} would (a merge into
     * the page's core). Its page is loaded now, so that applying reads no state. Returns the
     * class's first slot.
     */
    private int defer(int c, Fingerprint fp, boolean grew, PageSource source) throws Exception {
        int base = base(c);
        long v = meta.prefix(c, fp);
        int index = meta.page(c, v);
        byte[] p = page(c, base, index, source);
        int slot = base + index;
        int s = meta.suffixBits(c, index);
        int t = FingerprintPage.tailSize(p);
        int k = deferred == 0 ? 0 : deferredIn(c, index);
        if (slot >= slotCount() || t + k + 1 > FingerprintPage.TAIL_MAX) {
            applyDeferred();
            rewrite(c, fp, true, source);
            track(fp.hi, grew);
            return base;
        }
        int grows =
                (int)
                        (slotBytes(FingerprintPage.lengthAfterAppend(p, t, s, k + 1))
                                - slotBytes(FingerprintPage.lengthAfterAppend(p, t, s, k)));
        bytes += grows;
        deferredBytes += grows;
        meta.addEntries(c, 1);
        metaDirty = true;
        markDirty(slot);
        track(fp.hi, grew);
        if (++deferred == MAX_DEFERRED) {
            applyDeferred();
        }
        return base;
    }

    /** The bytes a page of {@code length} holds in the table: none for an empty page. */
    private static long slotBytes(int length) {
        return length == 0 ? 0 : arrayBytes(length);
    }

    /** How many of the {@link #deferred} inserts go to page {@code index} of class {@code c}. */
    private int deferredIn(int c, int index) {
        long[] p = pending;
        int n = (int) p[0];
        int width = meta.width(c);
        int k = 0;
        for (int i = n - deferred + 1; i <= n; i++) {
            if (meta.page(c, p[i] >>> (64 - width)) == index) {
                k++;
            }
        }
        return k;
    }

    /**
     * Puts the {@link #deferred} inserts into their pages, each page's in the order they came, in
     * one copy of the page: the same pages as inserting them one at a time. Changes no byte count.
     */
    private void applyDeferred() {
        int d = deferred;
        if (d == 0) {
            return;
        }
        deferred = 0;
        int c = meta.classCount() - 1;
        int base = base(c);
        int width = meta.width(c);
        long[] p = pending;
        int first = (int) p[0] - d + 1;
        long[] us = new long[d];
        int done = 0; // bit i: insert first + i applied
        long counted = bytes;
        for (int i = 0; i < d; i++) {
            if ((done >>> i & 1) != 0) {
                continue;
            }
            int index = meta.page(c, p[first + i] >>> (64 - width));
            int s = meta.suffixBits(c, index);
            int k = 0;
            for (int j = i; j < d; j++) {
                long v = p[first + j] >>> (64 - width);
                if ((done >>> j & 1) == 0 && meta.page(c, v) == index) {
                    us[k++] = meta.suffix(c, v, s);
                    done |= 1 << j;
                }
            }
            setPage(base, index, FingerprintPage.append(slot(base + index), s, us, k));
        }
        assert bytes - counted == deferredBytes
                : "deferred inserts counted " + deferredBytes + " bytes, took " + (bytes - counted);
        bytes = counted; // counted as they came, so that no byte count anyone holds changes
        deferredBytes = 0;
    }

    /**
     * Inserts {@code fp} into the newest class, first adding a class if that one is full; if {@code
     * tracked}, notes it for the journal and may put it off ({@link #defer}). Returns true if a
     * class was added.
     */
    private boolean insertFingerprint(Fingerprint fp, boolean tracked, PageSource source)
            throws Exception {
        if (!tracked) { // no longer noted for the journal (a whole write is due): none put off
            applyDeferred();
        }
        int c = meta.classCount() - 1;
        boolean grew = false;
        if (meta.isFull() && !meta.saturated) {
            applyDeferred(); // into the class they were counted in
            int next = grow();
            if (next >= 0) {
                c = next;
                grew = true;
            }
        }
        int base = tracked ? defer(c, fp, grew, source) : rewrite(c, fp, true, source);
        if (meta.wantsSplit(c)) {
            applyDeferred();
            splitPage(c, base, source);
        }
        return grew;
    }

    /**
     * Adds {@code fp}'s prefix to class {@code c} or removes it, by rewriting its page; returns the
     * class's first slot.
     */
    private int rewrite(int c, Fingerprint fp, boolean add, PageSource source) throws Exception {
        int base = base(c);
        long v = meta.prefix(c, fp);
        int index = meta.page(c, v);
        byte[] p = page(c, base, index, source);
        int s = meta.suffixBits(c, index);
        long u = meta.suffix(c, v, s);
        setPage(
                base,
                index,
                add ? FingerprintPage.insert(p, s, u) : FingerprintPage.remove(p, s, u));
        meta.addEntries(c, add ? 1 : -1);
        metaDirty = true;
        return base;
    }

    /**
     * Splits the newest class's page at its split pointer into it and a new page (linear hashing).
     */
    private void splitPage(int c, int base, PageSource source) throws Exception {
        int index = meta.split(c);
        byte[] p = page(c, base, index, source);
        byte[][] halves = FingerprintPage.split(p, meta.suffixBits(c, index));
        int created = meta.advanceSplit(c);
        setPage(base, index, halves[0]);
        setPage(base, created, halves[1]);
    }

    /**
     * Removes {@code fp}'s prefix from the newest class that holds it (compressed-fingerprint
     * filters only). Returns false if no class holds it.
     */
    boolean remove(Fingerprint fp, PageSource source) throws Exception {
        applyDeferred();
        int c = findClass(fp, source);
        if (c < 0) {
            return false;
        }
        rewrite(c, fp, false, source);
        journalOff(); // a journal replays inserts only
        return true;
    }

    /**
     * Notes an insert for the journal, unless the next write is whole anyway. The lowest bit of
     * {@code hi} is set if the insert added a class, so that {@link #takePending} knows where each
     * class's inserts begin: no class reads it, as no class is wider than 63 bits ({@link
     * FingerprintPage#MAX_SUFFIX_BITS}).
     */
    private void track(long hi, boolean grew) {
        if (wholeDue) {
            return;
        }
        long[] p = pending;
        if (p == null) {
            p = pending = new long[4];
            bytes += arrayBytes(8 * p.length);
        } else if (p[0] + 1 == p.length) {
            if (p[0] >= MAX_JOURNAL) {
                journalOff();
                return;
            }
            int n = Math.min(MAX_JOURNAL + 1, 2 * p.length);
            bytes += arrayBytes(8 * n) - arrayBytes(8 * p.length);
            p = pending = Arrays.copyOf(p, n);
        }
        p[(int) ++p[0]] = grew ? hi | 1 : hi & ~1L;
    }

    private void dropPending() {
        if (pending != null) {
            bytes -= arrayBytes(8 * pending.length);
            pending = null;
        }
    }

    /**
     * The key's journal passed its bound at a checkpoint, which journaled its inserts all the same:
     * its pages are to be written whole right after the checkpoint (packed, {@link
     * PackedFilter#isWholeSoon}). Until that write its next write is whole.
     */
    void writeWholeSoon() {
        journalFlags |= WHOLE_SOON;
        wholeDue = true;
    }

    /**
     * A batch between checkpoints passed the journal's bound and was journaled all the same: the
     * next checkpoint's flush is to call {@link #writeWholeSoon}, even if no insert is pending
     * then.
     */
    void journaledPastBound() {
        journalFlags |= PAST_BOUND;
    }

    boolean journalPastBound() {
        return (journalFlags & PAST_BOUND) != 0;
    }

    /** Whether {@link #writeWholeSoon} was called and no whole write followed yet. */
    boolean wholeSoon() {
        return (journalFlags & WHOLE_SOON) != 0;
    }

    /**
     * Whether the key's metadata in keyed state is known to carry the journal flag (read so, or
     * written so from here), so that the first journal element after a whole write need not read it
     * to know. False when not known: the caller reads it.
     */
    boolean storedJournalFlag() {
        return (journalFlags & STORED_JOURNAL_FLAG) != 0;
    }

    /** Records what the key's metadata in keyed state says of its journal: see above. */
    void storedJournalFlag(boolean set) {
        journalFlags =
                (byte)
                        (set
                                ? journalFlags | STORED_JOURNAL_FLAG
                                : journalFlags & ~STORED_JOURNAL_FLAG);
    }

    /** The next write writes the dirty pages whole (and clears the stored journal). */
    void journalOff() {
        applyDeferred();
        wholeDue = true;
        dropPending();
    }

    /**
     * Whether the next checkpoint may append the pending inserts to the key's journal instead of
     * writing its dirty pages whole, as far as counts tell: no whole write is due, and the journal
     * would hold at most {@link #MAX_JOURNAL} fingerprints. {@link #takePending} checks the bytes.
     */
    boolean mayJournal() {
        return !wholeDue && (long) journaled + pendingCount() <= MAX_JOURNAL;
    }

    /** Fingerprints inserted since the last write. */
    int pendingCount() {
        return pending == null ? 0 : (int) pending[0];
    }

    /** Fingerprints the stored journal holds. */
    int journaled() {
        return journaled;
    }

    /**
     * The pending inserts as one journal element, if the journal with it stays within its bound, at
     * most {@code share} of the bytes of the key's pages on the heap; they count as journaled from
     * now on. Null if it would not: the pages must be written whole, and the pending inserts stay.
     * Bytes, not entries, because a page entry costs about 7 bytes in exact mode and 1.5 to 2.5 in
     * approximate mode: a journal so bounded adds at most {@code share} to the key's state,
     * whatever the mode. The stored elements are counted at this one's bytes per entry, which keeps
     * no size for them on every cached key; earlier elements held narrower classes or fewer
     * entries, so this errs a little either way.
     *
     * <p>The bound is {@code share} times {@link #boundFactor}, drawn anew after each whole write:
     * keys that grow at the same pace would otherwise reach a fixed bound at the same checkpoint,
     * and write their pages whole together, every few checkpoints.
     */
    byte[] takePending(double share) {
        return takePending(share, false);
    }

    /**
     * {@link #takePending(double)}, or if {@code overBound} the element even if the journal with it
     * passes its bound (the key is then to be written whole soon, {@link #writeWholeSoon}).
     */
    byte[] takePending(double share, boolean overBound) {
        applyDeferred();
        int n = pendingCount();
        if (n == 0) {
            throw new IllegalStateException("no pending inserts to journal");
        }
        long[] p = pending;
        int breaks = 0;
        for (int i = 2; i <= n; i++) {
            breaks += (int) (p[i] & 1);
        }
        int[] bounds = new int[breaks + 2];
        int[] widths = new int[breaks + 1];
        int last = meta.classCount() - 1;
        bounds[0] = 1;
        for (int i = 2, s = 1; i <= n; i++) {
            if ((p[i] & 1) != 0) {
                bounds[s++] = i;
            }
        }
        bounds[breaks + 1] = n + 1;
        for (int s = 0; s <= breaks; s++) {
            widths[s] = PageJournal.width(meta.width(last - breaks + s));
        }
        byte[] element = PageJournal.encode(p, bounds, widths);
        long countAtWholeWrite = meta.count() - journaled - n;
        double room =
                8
                        * share
                        * boundFactor(keyHash(), countAtWholeWrite)
                        * (bytes - tableBytesOf(slots) - pendingBytes());
        if (!overBound && (journaled + (double) n) * 8 * element.length / n > room) {
            return null;
        }
        journaled += n;
        dropPending();
        return element;
    }

    /**
     * A key's journal bound as a share of {@code max-share}: from 1/4 to 1, uniform, mean 5/8, a
     * function of the key and of its entries at its last whole write, so that a restored key draws
     * the same one.
     */
    static double boundFactor(int keyHash, long countAtWholeWrite) {
        long h = Murmur3.fmix64(countAtWholeWrite * 0x9E3779B97F4A7C15L + keyHash);
        return 0.25 + 0.75 * ((h >>> 11) * 0x1.0p-53);
    }

    private long pendingBytes() {
        return pending == null ? 0 : arrayBytes(8 * pending.length);
    }

    /**
     * Notes a whole write (metadata and dirty pages, the stored journal cleared); a fingerprint
     * filter may journal again from now on if {@code journal}.
     */
    void wroteWhole(boolean journal) {
        applyDeferred();
        dropPending();
        journaled = 0;
        journalFlags &= STORED_JOURNAL_FLAG;
        wholeDue = !journal || !meta.isFingerprints();
    }

    /**
     * Inserts a stored journal's fingerprints over the stored pages, as they were inserted before
     * (see {@link PageJournal}); they count as journaled. The pages they change are dirty.
     */
    void replay(long[] his, PageSource source) throws Exception {
        for (long hi : his) {
            insertFingerprint(new Fingerprint(hi, 0), false, source);
        }
        journaled = his.length;
    }

    /**
     * A new filter for {@code key} of {@code meta}, approximate mode's compressed fingerprints,
     * holding every URL of {@code exact}, a key in exact mode's fingerprint pages ({@link
     * FilterMeta#EXACT_FINGERPRINTS}) as stored, and of its journal's fingerprints {@code
     * journaled} (null for none), which go in as they are rather than into its pages (inserting
     * them there made a simulated subtask's conversion of 10 M URLs take 7.4 s against 4.7). A page
     * holds the top bits of each 63-bit fingerprint, its page the low ones; each goes in as the
     * high half it begins, so every class keeps the prefix it would have kept of the URL itself,
     * and no URL {@code exact} holds is new to the result. The classes fill in the order of {@code
     * exact}'s pages, then its journal's, as inserts in that order would fill them, except that a
     * prefix an earlier class holds goes in again (a share of them below the target rate; a check
     * would cost a lookup per URL): each class is built whole from its sorted prefixes, its pages
     * encoded once, in an eighth to a tenth of the time inserts take (ExactConversionBenchmark).
     * {@code exact} is read page by page and each page dropped once read, so the heap holds one of
     * its pages at a time and the prefixes of the class being built, at most {@link #buildLimit} of
     * them; it is discarded at the end. The result is new: all of it is written at the next flush.
     */
    static KeyFilter fromExact(
            Object key, FilterMeta meta, KeyFilter exact, long[] journaled, PageSource source)
            throws Exception {
        return builder(key, meta, buildLimit(Runtime.getRuntime().maxMemory()))
                .addExact(exact, journaled, source)
                .done();
    }

    /**
     * The most prefixes a {@link ClassBuilder} gathers for one class, for a subtask of {@code
     * heapBytes} of heap, before it writes them and merges the rest into the class in chunks of as
     * many URLs: a 32nd of it in prefixes (8 bytes each, and as many again for their suffixes while
     * it writes them, so at most half of it), from 2^16 to 2^30. A subtask converts its keys one
     * after another as it opens, before its filter cache holds anything. With a slot of 4 GB that
     * is 134 M prefixes, which class 9 passes (256 M URLs at 1e-4, 200 M at 1%): the part past the
     * limit of a key of more than about 190 M URLs goes in by merges, each of which rewrites the
     * class's pages once (ExactConversionBenchmark's {@code convertByMerges}), where gathering its
     * newest class whole would take up to 24 bytes a URL of that class at once (an array grown by
     * doubling, then the suffixes) and could exhaust the heap as the subtask opens. A class's pages
     * take 1.5 to 3 bytes a URL at the usual rates, so a class that fits in the heap is at most
     * about twenty chunks, and its merges rewrite each entry about ten times on average.
     */
    static int buildLimit(long heapBytes) {
        return (int) Math.max(1 << 16, Math.min(1 << 30, heapBytes / 32));
    }

    /**
     * A builder of a new filter for {@code key} of {@code meta} (approximate mode's compressed
     * fingerprints) from the high halves of its URLs' fingerprints, whose classes it builds whole
     * while one holds at most {@code limit} prefixes; see {@link ClassBuilder}. Its filter is new
     * (every class created here), so it never reads the key's stored pages.
     */
    static ClassBuilder builder(Object key, FilterMeta meta, int limit) {
        if (!meta.isFingerprints()) {
            throw new IllegalArgumentException("not a fingerprint filter: " + meta);
        }
        return new KeyFilter(key, meta, true).new ClassBuilder(limit);
    }

    /**
     * Builds {@link #fromExact}'s classes: gathers the newest class's prefixes until it holds its
     * capacity of distinct ones, then sets its geometry as that many inserts would have (the same
     * splits), encodes each of its pages from their sorted suffixes, and adds the next class. Past
     * its limit of prefixes in one class, or past the last class the filter can have, it writes
     * what it has gathered and merges the rest into the class's pages a chunk of up to {@code
     * limit} URLs at a time, each page rewritten once a chunk where an insert rewrote it every few
     * URLs: the count and splits that inserts would give, and the pages a build of the whole class
     * would write, but that when a chunk fills the class an even spread of its new prefixes goes in
     * and the URLs of the rest go on to the next class.
     */
    final class ClassBuilder {
        private final int limit;

        /**
         * Gathering: the newest class's prefixes. Merging: the high halves of the URLs of the next
         * chunk.
         */
        private long[] prefixes;

        private int n;
        private boolean merging;

        /** No class can follow the newest: it takes every URL. */
        private boolean saturated;

        private long merged;

        private ClassBuilder(int limit) {
            this.limit = Math.max(2, limit);
            this.prefixes = new long[Math.min(1024, this.limit)];
        }

        /**
         * Adds every URL of {@code exact}, a key in exact mode's fingerprint pages ({@link
         * FilterMeta#EXACT_FINGERPRINTS}) as stored, and its journal's fingerprints {@code
         * journaled} (null for none), as {@link #fromExact} describes; {@code exact} is discarded.
         */
        ClassBuilder addExact(KeyFilter exact, long[] journaled, PageSource source)
                throws Exception {
            if (!exact.meta.isExactFingerprints()) {
                throw new IllegalArgumentException("not exact pages: " + exact.meta);
            }
            exact.applyDeferred();
            FilterMeta m = exact.meta;
            int base = 0;
            for (int c = 0; c < m.classCount(); c++) {
                int width = m.width(c);
                for (int i = 0, n = m.pages(c); i < n; i++) {
                    byte[] p = exact.page(c, base, i, source);
                    if (p == ABSENT) {
                        continue;
                    }
                    int low = width - m.suffixBits(c, i);
                    for (long u : FingerprintPage.decode(p, m.suffixBits(c, i))) {
                        add(((u << low) | i) << (64 - width));
                    }
                    exact.setSlot(base + i, null);
                }
                base += m.pages(c);
            }
            if (journaled != null) {
                for (long hi : journaled) {
                    add(hi); // no class reads bit 0, the journal's class-break flag
                }
            }
            exact.discard();
            return this;
        }

        /**
         * URLs that came past the limit of prefixes in one class, or past the last class, and went
         * in by merges.
         */
        long merged() {
            return merged;
        }

        /** Adds the URL whose fingerprint's high half is {@code hi}. */
        void add(long hi) {
            if (merging && n == prefixes.length) {
                if (n >= limit) {
                    merge(); // may fill the class and go on gathering the next
                } else {
                    prefixes = Arrays.copyOf(prefixes, (int) Math.min(limit, 2L * n));
                }
            }
            if (merging) {
                merged++;
                prefixes[n++] = hi;
                return;
            }
            int c = meta.classCount() - 1;
            if (n == prefixes.length) {
                if (n >= limit) {
                    finish(); // keeps the array: it holds the chunks from now on
                    merging = true;
                    add(hi);
                    return;
                }
                prefixes = Arrays.copyOf(prefixes, (int) Math.min(limit, 2L * n));
            }
            prefixes[n++] = hi >>> (64 - meta.width(c));
            if (n >= meta.capacity(c) && distinct() >= meta.capacity(c)) {
                finish();
                if (grow() < 0) { // the newest class keeps filling, as inserts do
                    merging = true;
                    saturated = true;
                }
            }
        }

        /** Sorts the prefixes gathered and drops repeats; returns how many are left. */
        private int distinct() {
            Arrays.sort(prefixes, 0, n);
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (k == 0 || prefixes[i] != prefixes[k - 1]) {
                    prefixes[k++] = prefixes[i];
                }
            }
            return n = k;
        }

        /** The filter, every prefix gathered written. */
        KeyFilter done() {
            while (merging && n > 0) {
                merge();
            }
            finish();
            forgetRecentInserts(); // not a hot key's: packed at the next checkpoint as any other
            return KeyFilter.this;
        }

        /*
         * A merge puts the chunk's URLs whose prefixes the newest class lacks into it, up to its
         * capacity. Linear hashing only ever splits a page in two, so the pages of a class whose
         * level is L fall into 2^L groups, one for each value t of a prefix's low L bits, and
         * however many pages a merge splits, each page it leaves draws its prefixes from one group.
         * The chunk is sorted by t and then by the rest of the prefix, each group's pages decoded
         * once to find which of its URLs are new, the class's count and splits advanced as that
         * many inserts would, and then each group's pages decoded again and rewritten from the
         * merge of the two sorted lists. A group whose prefixes are split apart by the order
         * within it keeps them sorted, so no page is sorted again.
         */

        /**
         * Merges the chunk into the newest class. If it has no room for all of them, an even spread
         * of the new prefixes goes in, the class grows, and the URLs of the rest are gathered for
         * the next.
         */
        private void merge() {
            int c = meta.classCount() - 1;
            int w = meta.width(c);
            int level = meta.level(c);
            int split = meta.split(c);
            int base = base(c);
            int restBits = w - level;
            long below = -1L >>> w; // the bits below the prefix, carried along for the next class
            for (int i = 0; i < n; i++) {
                long hi = prefixes[i];
                long v = hi >>> (64 - w);
                long key = level == 0 ? v : (v >>> level) | (v << restBits & mask(w));
                // The sign bit flipped so that a signed sort gives the unsigned order.
                prefixes[i] = ((key << (64 - w)) | (hi & below)) ^ Long.MIN_VALUE;
            }
            Arrays.sort(prefixes, 0, n);
            // Pass 1: keep, in order, the URLs whose prefixes the class lacks. URLs that share a
            // prefix stay together: one goes in for all, or all wait for the next class.
            int kept = 0;
            int distinct = 0;
            for (int i = 0; i < n; ) {
                int t = group(prefixes[i], w, restBits);
                long[] old = oldGroup(c, base, w, level, split, t);
                int o = 0;
                for (; i < n && group(prefixes[i], w, restBits) == t; i++) {
                    long q = rest(prefixes[i], w, restBits);
                    while (o < old.length && old[o] < q) {
                        o++;
                    }
                    if (o < old.length && old[o] == q) {
                        continue;
                    }
                    if (kept == 0 || key(prefixes[kept - 1], w) != key(prefixes[i], w)) {
                        distinct++;
                    }
                    prefixes[kept++] = prefixes[i];
                }
            }
            long room = saturated ? Long.MAX_VALUE : meta.capacity(c) - meta.entries(c);
            int taking = (int) Math.min(distinct, room);
            addEntries(c, taking);
            int pages = meta.pages(c);
            // Pass 2: rewrite each group that gains prefixes or pages.
            int i = 0;
            int d = -1; // the distinct prefix of prefixes[i - 1] among the kept
            long[] union = new long[0];
            for (int t = 0; t < 1 << level; t++) {
                int from = i;
                int firstDistinct = d;
                int adding = 0;
                for (; i < kept && group(prefixes[i], w, restBits) == t; i++) {
                    if (i == 0 || key(prefixes[i - 1], w) != key(prefixes[i], w)) {
                        adding += isTaken(++d, distinct, taking) ? 1 : 0;
                    }
                }
                int oldPages = t < split ? 2 : 1;
                int newPages = (pages - 1 - t >>> level) + 1;
                if (adding == 0 && newPages == oldPages) {
                    continue;
                }
                long[] old = oldGroup(c, base, w, level, split, t);
                if (union.length < old.length + adding) {
                    union = new long[Math.max(old.length + adding, union.length * 3 / 2)];
                }
                int m = 0;
                int o = 0;
                d = firstDistinct;
                for (int k = from; k < i; k++) {
                    if (k > 0 && key(prefixes[k - 1], w) == key(prefixes[k], w)
                            || !isTaken(++d, distinct, taking)) {
                        continue;
                    }
                    long q = rest(prefixes[k], w, restBits);
                    while (o < old.length && old[o] < q) {
                        union[m++] = old[o++];
                    }
                    union[m++] = q;
                }
                while (o < old.length) {
                    union[m++] = old[o++];
                }
                writeGroup(c, base, level, t, newPages, union, m);
            }
            // The URLs left over, as high halves, to the front (over entries already read).
            int left = 0;
            d = -1;
            long previous = 0;
            for (int k = 0; k < kept; k++) {
                long key = key(prefixes[k], w);
                if (k == 0 || key != previous) {
                    d++;
                }
                previous = key;
                if (!isTaken(d, distinct, taking)) {
                    long v = level == 0 ? key : (key << level & mask(w)) | (key >>> restBits);
                    prefixes[left++] = (v << (64 - w)) | (prefixes[k] & below);
                }
            }
            n = left;
            metaDirty = true;
            if (left > 0 && grow() >= 0) {
                merging = false;
                int next = meta.width(meta.classCount() - 1);
                for (int k = 0; k < left; k++) {
                    prefixes[k] >>>= 64 - next;
                }
            } else if (left > 0) {
                saturated = true; // the next merge takes the rest
            }
        }

        /** A sorted chunk entry's prefix as it is sorted: its group, then the rest. */
        private static long key(long y, int w) {
            return (y ^ Long.MIN_VALUE) >>> (64 - w);
        }

        /** A sorted chunk entry's prefix without its group's bits (the prefix's low ones). */
        private static long rest(long y, int w, int restBits) {
            return key(y, w) & mask(restBits);
        }

        /** The group (the prefix's low {@code w - restBits} bits) of a sorted chunk entry. */
        private static int group(long y, int w, int restBits) {
            return w == restBits ? 0 : (int) ((y ^ Long.MIN_VALUE) >>> (64 - w + restBits));
        }

        /** True if the {@code k}th of {@code kept} new URLs is among the {@code taking} spread. */
        private static boolean isTaken(int k, int kept, int taking) {
            return taken(k + 1, kept, taking) > taken(k, kept, taking);
        }

        /** How many of the first {@code k} of {@code kept} new URLs the spread of taking takes. */
        private static int taken(int k, int kept, int taking) {
            return kept == 0 ? 0 : (int) ((long) k * taking / kept);
        }

        /**
         * Group t's prefixes in class c's pages before the merge, each without its low {@code
         * level} bits, sorted: one page, or the two a split made of it, interleaved.
         */
        private long[] oldGroup(int c, int base, int w, int level, int split, int t) {
            if (t >= split) {
                return FingerprintPage.decode(
                        page(c, base, t), FingerprintClass.suffixBits(w, level, split, t));
            }
            int s = FingerprintClass.suffixBits(w, level, split, t);
            long[] a = FingerprintPage.decode(page(c, base, t), s);
            long[] b = FingerprintPage.decode(page(c, base, t + (1 << level)), s);
            long[] out = new long[a.length + b.length];
            int i = 0;
            int j = 0;
            for (int k = 0; k < out.length; k++) {
                out[k] =
                        j == b.length || (i < a.length && a[i] < b[j])
                                ? a[i++] << 1
                                : b[j++] << 1 | 1;
            }
            return out;
        }

        /**
         * Writes group t's {@code m} sorted prefixes (without their low {@code level} bits) into
         * the class's {@code newPages} pages of the group as it now splits them.
         */
        private void writeGroup(int c, int base, int level, int t, int newPages, long[] q, int m) {
            int[] from = new int[newPages + 1];
            for (int k = 0; k < m; k++) {
                from[(meta.page(c, q[k] << level | t) - t >>> level) + 1]++;
            }
            for (int p = 0; p < newPages; p++) {
                from[p + 1] += from[p];
            }
            long[] suffixes = new long[m];
            int[] at = Arrays.copyOf(from, newPages);
            for (int k = 0; k < m; k++) {
                long v = q[k] << level | t;
                int page = meta.page(c, v);
                int g = page - t >>> level;
                suffixes[at[g]++] = meta.suffix(c, v, meta.suffixBits(c, page));
            }
            for (int g = 0; g < newPages; g++) {
                int page = t + (g << level);
                setPage(
                        base,
                        page,
                        FingerprintPage.encode(
                                suffixes, from[g], from[g + 1], meta.suffixBits(c, page)));
            }
        }

        /** A page of a class the builder made: never stored, so never loaded. */
        private byte[] page(int c, int base, int index) {
            try {
                return KeyFilter.this.page(c, base, index, PageSource.NOTHING_STORED);
            } catch (Exception e) {
                throw new IllegalStateException(e); // NOTHING_STORED loads nothing
            }
        }

        /**
         * Counts {@code k} more prefixes in class c and splits its pages as that many inserts
         * would.
         */
        private void addEntries(int c, int k) {
            for (int i = 0; i < k; i++) {
                meta.addEntries(c, 1);
                if (meta.wantsSplit(c)) {
                    meta.advanceSplit(c);
                }
            }
        }

        private static long mask(int bits) {
            return bits == 64 ? -1L : (1L << bits) - 1;
        }

        /** Writes the prefixes gathered into the newest class, which holds none yet. */
        void finish() {
            if (merging || n == 0) {
                return;
            }
            distinct();
            int c = meta.classCount() - 1;
            addEntries(c, n);
            int pages = meta.pages(c);
            int[] from = new int[pages + 1];
            for (int k = 0; k < n; k++) {
                from[meta.page(c, prefixes[k]) + 1]++;
            }
            for (int i = 0; i < pages; i++) {
                from[i + 1] += from[i];
            }
            // Bucketed in prefix order, so each page's suffixes come out sorted.
            long[] suffixes = new long[n];
            int[] at = Arrays.copyOf(from, pages);
            for (int k = 0; k < n; k++) {
                long v = prefixes[k];
                int i = meta.page(c, v);
                suffixes[at[i]++] = meta.suffix(c, v, meta.suffixBits(c, i));
            }
            int base = base(c);
            for (int i = 0; i < pages; i++) {
                if (from[i + 1] > from[i]) {
                    setPage(
                            base,
                            i,
                            FingerprintPage.encode(
                                    suffixes, from[i], from[i + 1], meta.suffixBits(c, i)));
                }
            }
            metaDirty = true;
            n = 0;
        }
    }

    /**
     * Replaces a fingerprint page (pages are rewritten, not changed in place) and marks it dirty.
     */
    private void setPage(int base, int index, byte[] p) {
        int slot = base + index;
        if (slot >= slotCount()) { // the newest class split past its table's room
            resize(Math.max(slot + 1, base + 2 * (slotCount() - base)));
        }
        byte[] old = slot(slot);
        if (old != null && old != ABSENT) {
            bytes -= arrayBytes(old.length);
        }
        setSlot(slot, p.length == 0 ? ABSENT : p);
        bytes += p.length == 0 ? 0 : arrayBytes(p.length);
        markDirty(slot);
    }

    private void resize(int n) {
        byte[][] t;
        if (slots instanceof byte[][] old) {
            t = Arrays.copyOf(old, n);
        } else {
            t = new byte[n][];
            t[0] = (byte[]) slots;
        }
        bytes += tableBytesOf(t) - tableBytesOf(slots);
        slots = t;
    }

    /** Slots in the page table. */
    private int slotCount() {
        return slots instanceof byte[][] t ? t.length : 1;
    }

    /** The content of slot {@code i}: null if not loaded, {@link #ABSENT}, or a page. */
    private byte[] slot(int i) {
        return slots instanceof byte[][] t ? t[i] : (byte[]) slots;
    }

    private void setSlot(int i, byte[] p) {
        if (slots instanceof byte[][] t) {
            t[i] = p;
        } else {
            slots = p;
        }
    }

    /**
     * Exact mode's growth, all at once: replaces every layer with {@code layer} filled with {@code
     * fps}. The caller removes this key's pages from state before {@link #finishRebuild}. Returns
     * the number of fingerprints read.
     */
    long rebuild(BloomLayer layer, Iterable<Fingerprint> fps) throws Exception {
        startRebuild(layer);
        rebuild.cursor = fps.iterator();
        long n = rebuildStep(Long.MAX_VALUE);
        finishRebuild();
        return n;
    }

    /**
     * Starts exact mode's growth spread over records: {@code layer} is filled from the exact store
     * by {@link #rebuildStep} once {@link #rebuildFrom} gave it the scan, and from every insert
     * from then on, while the current layers go on answering (and taking inserts, without growing).
     */
    void startRebuild(BloomLayer layer) {
        rebuild = new Rebuild(layer);
        bytes += rebuild.bytes;
    }

    boolean isRebuilding() {
        return rebuild != null;
    }

    /** True once the rebuild has its scan of the exact store. */
    boolean rebuildStarted() {
        return rebuild.cursor != null;
    }

    void rebuildFrom(Iterator<Fingerprint> scan) {
        rebuild.cursor = scan;
    }

    /** Puts up to {@code budget} scanned fingerprints into the new layer; returns how many. */
    long rebuildStep(long budget) {
        long before = rebuild.bytes;
        long n = 0;
        Iterator<Fingerprint> it = rebuild.cursor;
        while (n < budget && it.hasNext()) {
            rebuild.put(it.next());
            n++;
        }
        rebuild.read += n;
        bytes += rebuild.bytes - before;
        return n;
    }

    /** True once the scan has read every entry. */
    boolean rebuildScanned() {
        return rebuild.cursor != null && !rebuild.cursor.hasNext();
    }

    /** Entries the rebuild has read from the exact store so far. */
    long rebuildRead() {
        return rebuild.read;
    }

    /**
     * Replaces every layer with the rebuilt one. Its count is the entries read plus the inserts
     * since the scan began (an insert the scan also read counts twice: the next rebuild comes a
     * little early, never late). Every page is dirty, as is the metadata; the caller removes the
     * old pages from state.
     */
    void finishRebuild() {
        Rebuild r = rebuild;
        rebuild = null;
        meta.replaceLayers(r.layer);
        r.layer.count = r.read + r.added;
        slots = r.pages;
        dirty = null;
        for (int i = 0; i < r.pages.length; i++) {
            if (r.pages[i] != null) {
                markDirty(i);
            }
        }
        bytes = r.bytes;
        metaDirty = true;
        createdHere = 1; // the caller cleared the key's pages from state
    }

    /** Drops a rebuild in progress; the current layers stay as they are. */
    void abandonRebuild() {
        if (rebuild != null) {
            bytes -= rebuild.bytes;
            rebuild = null;
        }
    }

    /** A one-layer filter under construction, with its own page table and heap bytes. */
    private static final class Rebuild {
        final BloomLayer layer;
        final byte[][] pages;
        Iterator<Fingerprint> cursor;
        long read;
        long added;
        long bytes;

        Rebuild(BloomLayer layer) {
            this.layer = layer;
            this.pages = new byte[layer.pages][];
            this.bytes = tableBytes(pages.length);
        }

        void put(Fingerprint fp) {
            int index = BlockedBloom.page(fp, 0, layer);
            byte[] p = pages[index];
            if (p == null) {
                p = pages[index] = new byte[layer.pageBytes()];
                bytes += arrayBytes(p.length);
            }
            BlockedBloom.put(fp, 0, layer, p);
        }
    }

    /**
     * Page {@code index} of layer {@code layer} for reading; {@link #ABSENT} if it holds no bits.
     */
    byte[] page(int layer, int index, PageSource source) throws Exception {
        return page(layer, base(layer), index, source);
    }

    private byte[] page(int layer, int base, int index, PageSource source) throws Exception {
        int slot = base + index;
        if (slot >= slotCount()) {
            return ABSENT; // a fingerprint class's page beyond the table: never stored
        }
        byte[] p = slot(slot);
        if (p == null && layer < 32 && (createdHere >>> layer & 1) != 0) {
            p = ABSENT;
            setSlot(slot, p);
        } else if (p == null) {
            byte[] stored = source.load(BlockedBloom.pageId(layer, index));
            // A copy: a heap state backend hands out its own object, which we must not mutate.
            // A fingerprint page stored Rice-coded is decoded, one written before the high parts
            // came first is turned around.
            if (stored == null) {
                p = ABSENT;
            } else if (meta.isFingerprints()) {
                if (FingerprintPage.isFormerLayout(stored)) {
                    source.formerLayoutRead();
                }
                p = FingerprintPage.fromStored(stored, meta.suffixBits(layer, index));
            } else {
                p = stored.clone();
            }
            setSlot(slot, p);
            bytes += p == ABSENT ? 0 : arrayBytes(p.length);
        }
        return p;
    }

    /** The Bloom page for writing: allocated if absent, and marked dirty. */
    private byte[] pageForWrite(int layer, int base, int index, PageSource source)
            throws Exception {
        byte[] p = page(layer, base, index, source);
        if (p == ABSENT) {
            p = new byte[meta.layer(layer).pageBytes()];
            setSlot(base + index, p);
            bytes += arrayBytes(p.length);
        }
        markDirty(base + index);
        return p;
    }

    private void markDirty(int slot) {
        long[] d = dirty;
        int w = slot >>> 6;
        if (slot == 0 && (d == LONE_DIRTY || d == null && !(slots instanceof byte[][]))) {
            dirty = LONE_DIRTY; // slot 0 of a one-slot key, or slot 0 again
            return;
        }
        if (d == LONE_DIRTY || d == null) { // a key's first dirty slot, or its second
            long[] bits = new long[Math.max(w + 1, (slotCount() + 63) >>> 6)];
            bits[0] = d == LONE_DIRTY ? 1L : 0L;
            d = dirty = bits;
        } else if (w >= d.length) {
            d = dirty = Arrays.copyOf(d, Math.max(w + 1, (slotCount() + 63) >>> 6));
        }
        d[w] |= 1L << slot;
    }

    /** Adds the next layer to the metadata and the page table; -1 if the filter is saturated. */
    int grow() {
        return added(meta.isFingerprints() ? meta.growClass() : meta.grow());
    }

    /** Makes room in the page table for {@code layer}, just added to the metadata, unless -1. */
    private int added(int layer) {
        if (layer < 0) {
            return -1;
        }
        // The old newest layer's spare room (a class's table is rounded up) is never used now.
        resize(slotCount(layer + 1));
        metaDirty = true;
        if (layer < 32) {
            createdHere |= 1 << layer;
        }
        return layer;
    }

    /**
     * Puts the filter into generations ({@link FilterMeta#startGenerations}). The next write is
     * whole, so that the stored metadata says so before any journal follows.
     */
    void startGenerations(long until, double generationFpp) {
        journalOff();
        meta.startGenerations(until, generationFpp);
        metaDirty = true;
    }

    /**
     * Whether {@code fp}'s prefix is in a class of the newest generation (with generations only).
     */
    boolean inNewestGeneration(Fingerprint fp, PageSource source) throws Exception {
        int c = findClass(fp, source);
        if (c < 0) {
            return deferredHolds(fp);
        }
        return meta.until(c) == meta.newestUntil();
    }

    /**
     * Starts a generation that ends at {@code until} ({@link FilterMeta#startGeneration}): inserts
     * go to its first class from now on. The next write is whole: a journal's inserts are replayed
     * without their times, so a journal must not span two generations.
     */
    void startGeneration(long until) {
        journalOff();
        added(meta.startGeneration(until));
        metaDirty = true; // also when the newest generation was extended instead
    }

    /**
     * Forgets the {@code k} oldest classes, fewer than all (expired generations). Every page of the
     * classes that stay is loaded first and is dirty after, because a page's id names its class
     * ({@link BlockedBloom#pageId}) and the classes are renumbered; the caller removes the key's
     * stored pages and journal, so that the next write stores the filter whole.
     */
    void dropOldest(int k, PageSource source) throws Exception {
        journalOff();
        int n = meta.classCount();
        int from = base(k);
        for (int c = k, b = from; c < n; b += meta.pages(c), c++) {
            for (int i = 0, end = meta.pages(c); i < end; i++) {
                page(c, b, i, source);
            }
        }
        for (int i = 0; i < from; i++) {
            byte[] p = slot(i);
            if (p != null && p != ABSENT) {
                bytes -= arrayBytes(p.length);
            }
        }
        int left = slotCount() - from;
        Object t;
        if (left == 1) {
            t = slot(from);
        } else {
            t = Arrays.copyOfRange((byte[][]) slots, from, from + left);
        }
        bytes += tableBytesOf(t) - tableBytesOf(slots);
        slots = t;
        meta.dropOldest(k);
        dirty = null;
        for (int i = 0; i < left; i++) {
            byte[] p = slot(i);
            if (p != null && p != ABSENT) {
                markDirty(i);
            }
        }
        createdHere = -1; // every page that stays is on the heap: state holds none of them now
        metaDirty = true;
    }

    boolean isDirty() {
        return metaDirty || dirty != null;
    }

    int dirtyPages() {
        int n = 0;
        if (dirty != null) {
            for (long w : dirty) {
                n += Long.bitCount(w);
            }
        }
        return n;
    }

    /** Hands each dirty page to {@code sink} and marks it clean. */
    void drainDirty(PageSink sink) throws Exception {
        applyDeferred();
        long[] d = dirty;
        if (d != null) {
            int layer = 0;
            int base = 0;
            int end = meta.layerCount() == 0 ? 0 : pageCountOrRoom(0);
            for (int w = 0; w < d.length; w++) {
                for (long bits = d[w]; bits != 0; bits &= bits - 1) {
                    int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                    while (s >= end) {
                        base = end;
                        end += pageCountOrRoom(++layer);
                    }
                    sink.write(BlockedBloom.pageId(layer, s - base), slot(s));
                }
            }
        }
        dirty = null; // a clean key holds no dirty-page set
    }

    /** A layer's page count; the newest layer owns the rest of the table. */
    private int pageCountOrRoom(int layer) {
        return layer == meta.layerCount() - 1 ? Integer.MAX_VALUE / 2 : pageCount(layer);
    }

    /**
     * What keyed state gets for page {@code pageId} ({@link #drainDirty}), {@code page} being its
     * bytes on the heap: approximate mode's fingerprint pages Rice-coded ({@link
     * FingerprintPage#toStored}), any other page a copy (a heap state backend keeps the object, and
     * this filter goes on changing its own).
     */
    byte[] stored(int pageId, byte[] page) {
        if (meta.isFingerprints() && !meta.isExactFingerprints()) {
            return FingerprintPage.toStored(
                    page, meta.suffixBits(pageId >>> 24, pageId & 0xFFFFFF));
        }
        return page.clone();
    }

    /** Receives a dirty page. */
    interface PageSink {
        void write(int pageId, byte[] page) throws Exception;
    }

    /** Drops the page arrays of a clean, evicted filter, so that a stale reference holds none. */
    void release() {
        if (isDirty()) {
            throw new IllegalStateException("release() of a dirty filter would lose bits");
        }
        discard();
    }

    /** Drops the page arrays, dirty or not: the key's state was cleared. */
    void discard() {
        rebuild = null;
        deferred = 0; // the key's state was cleared: nothing to apply
        deferredBytes = 0;
        dropPending();
        wholeDue = true;
        metaDirty = false;
        slots = NO_SLOTS;
        dirty = null;
        bytes = 0;
        createdHere = 0;
    }

    /** Heap bytes of the loaded pages alone, without page tables and object overhead. */
    long pageBytes() {
        applyDeferred();
        long n = 0;
        for (int i = 0, end = slotCount(); i < end; i++) {
            byte[] p = slot(i);
            if (p != null) {
                n += p.length;
            }
        }
        return n;
    }

    /**
     * Heap held for this key while it is cached: pages and page tables as allocated, plus its
     * objects (this filter, its metadata and layers, the key, the dirty-page bits, its slot in the
     * cache's table; the cache counts its dirty-list slot itself), with object sizes of a 64-bit
     * JVM with compressed references (12-byte headers, 8-byte alignment). {@code
     * FilterCacheFootprintTest} keeps this within 10% of what JOL measures.
     */
    long bytes() {
        int layers = meta.layerCount();
        long n = bytes + FIXED_BYTES;
        if (meta.isFingerprints()) {
            n += layers <= 1 ? 0 : align(16L + 24L * (layers - 1)); // classes 1 and up
        } else { // the layer list, its array, the layers
            n += 24 + align(16L + 4L * (layers + 1)) + BLOOM_LAYER_BYTES * layers;
        }
        if (dirty != null && dirty != LONE_DIRTY) {
            n += align(16L + 8L * dirty.length);
        }
        if (meta.hasGenerations()) {
            n += align(16L + 8L * layers);
        }
        return n
                + (key instanceof byte[] b
                        ? align(16L + b.length)
                        : key instanceof String k ? 24 + align(16L + 2L * k.length()) : 64);
    }

    /**
     * This object (64), the metadata with class 0 (56), and the filter's share of the cache's table
     * (8).
     */
    private static final long FIXED_BYTES = 64 + 56 + 8;

    /** A {@link BloomLayer} object. */
    private static final long BLOOM_LAYER_BYTES = 40;

    /** A fingerprint class's page table: room to split up to the next power of two. */
    private static int tableSize(int pages) {
        return pages <= 1 ? 1 : Integer.highestOneBit(pages - 1) << 1;
    }

    private static long arrayBytes(int length) {
        return align(16L + length);
    }

    private static long align(long n) {
        return (n + 7) & ~7L;
    }

    /** Pages held on the heap (walks the table). */
    int loadedPages() {
        int n = 0;
        for (int i = 0, end = slotCount(); i < end; i++) {
            byte[] p = slot(i);
            if (p != null && p != ABSENT) {
                n++;
            }
        }
        return n;
    }

    private static long tableBytes(int slots) {
        return align(16L + 4L * slots);
    }

    /** The page table's own bytes: none for a lone slot held in the field. */
    private static long tableBytesOf(Object slots) {
        return slots instanceof byte[][] t ? tableBytes(t.length) : 0;
    }
}
