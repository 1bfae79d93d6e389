package dev.firstseen.dedup;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The heap copy of one key's filter, a Bloom filter or a compressed-fingerprint filter: its
 * metadata and the pages loaded so far. Pages are loaded on first touch; a page missing from state
 * is empty (all zeros, no fingerprints) and costs no memory until something is put in it. Dirty
 * pages and metadata are written back by {@link DedupOperator}.
 */
final class KeyFilter {
    /** Marks a page that was looked up and is not in state (all bits zero). */
    static final byte[] ABSENT = new byte[0];

    final Object key;
    final FilterMeta meta;
    boolean metaDirty;
    private byte[][][] pages;
    private BitSet[] dirty;
    private int dirtyPages;
    private long bytes;
    private int loadedPages;

    KeyFilter(Object key, FilterMeta meta, boolean isNew) {
        this.key = key;
        this.meta = meta;
        this.metaDirty = isNew;
        int n = meta.layerCount();
        this.pages = new byte[n][][];
        this.dirty = new BitSet[n];
    }

    /** True if any layer may hold {@code fp}; false means it was certainly never inserted. */
    boolean mightContain(Fingerprint fp, PageSource source) throws Exception {
        if (meta.isFingerprints()) {
            return findClass(fp, source) >= 0;
        }
        for (int layer = meta.layerCount() - 1; layer >= 0; layer--) {
            BloomLayer g = meta.layer(layer);
            byte[] p = page(layer, BlockedBloom.page(fp, layer, g), source);
            if (p != ABSENT && BlockedBloom.mightContain(fp, layer, g, p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inserts {@code fp} into the newest layer, first adding a layer if that one is full and the
     * filter can still grow (see {@link FilterMeta#grow()}). Returns true if a layer was added.
     */
    boolean insert(Fingerprint fp, PageSource source) throws Exception {
        if (meta.isFingerprints()) {
            return insertFingerprint(fp, source);
        }
        int layer = meta.layerCount() - 1;
        boolean grew = false;
        if (meta.layer(layer).isFull() && !meta.saturated) {
            int next = grow();
            if (next >= 0) {
                layer = next;
                grew = true;
            }
        }
        BloomLayer g = meta.layer(layer);
        byte[] p = pageForWrite(layer, BlockedBloom.page(fp, layer, g), source);
        BlockedBloom.put(fp, layer, g, p);
        g.count++;
        metaDirty = true;
        return grew;
    }

    /** The newest class holding {@code fp}'s prefix, or -1. */
    private int findClass(Fingerprint fp, PageSource source) throws Exception {
        for (int c = meta.classes.size() - 1; c >= 0; c--) {
            FingerprintClass k = meta.classes.get(c);
            long v = k.prefix(fp);
            int index = k.page(v);
            byte[] p = page(c, index, source);
            if (p != ABSENT
                    && FingerprintPage.contains(p, k.suffixBits(index), k.suffix(v, index))) {
                return c;
            }
        }
        return -1;
    }

    private boolean insertFingerprint(Fingerprint fp, PageSource source) throws Exception {
        int c = meta.classes.size() - 1;
        boolean grew = false;
        if (meta.classes.get(c).isFull() && !meta.saturated) {
            int next = grow();
            if (next >= 0) {
                c = next;
                grew = true;
            }
        }
        FingerprintClass k = meta.classes.get(c);
        long v = k.prefix(fp);
        int index = k.page(v);
        byte[] p = page(c, index, source);
        setPage(c, index, FingerprintPage.insert(p, k.suffixBits(index), k.suffix(v, index)));
        k.count++;
        metaDirty = true;
        if (k.wantsSplit()) {
            splitPage(c, k, source);
        }
        return grew;
    }

    /** Splits the class's page at its split pointer into it and a new page (linear hashing). */
    private void splitPage(int c, FingerprintClass k, PageSource source) throws Exception {
        int index = k.split();
        byte[] p = page(c, index, source);
        byte[][] halves = FingerprintPage.split(p, k.suffixBits(index));
        int created = k.advanceSplit();
        setPage(c, index, halves[0]);
        setPage(c, created, halves[1]);
    }

    /**
     * Removes {@code fp}'s prefix from the newest class that holds it (compressed-fingerprint
     * filters only). Returns false if no class holds it.
     */
    boolean remove(Fingerprint fp, PageSource source) throws Exception {
        int c = findClass(fp, source);
        if (c < 0) {
            return false;
        }
        FingerprintClass k = meta.classes.get(c);
        long v = k.prefix(fp);
        int index = k.page(v);
        byte[] p = page(c, index, source);
        setPage(c, index, FingerprintPage.remove(p, k.suffixBits(index), k.suffix(v, index)));
        k.count--;
        metaDirty = true;
        return true;
    }

    /**
     * Replaces a fingerprint page (pages are rewritten, not changed in place) and marks it dirty.
     */
    private void setPage(int layer, int index, byte[] p) {
        byte[][] lp = layerPages(layer);
        if (index >= lp.length) {
            int n = lp.length;
            lp = pages[layer] = Arrays.copyOf(lp, Math.max(index + 1, n * 2));
            bytes += align(16L + 4L * lp.length) - align(16L + 4L * n);
        }
        byte[] old = lp[index];
        if (old != null && old != ABSENT) {
            bytes -= arrayBytes(old.length);
        } else if (p.length > 0) {
            loadedPages++;
        }
        lp[index] = p.length == 0 ? ABSENT : p;
        bytes += p.length == 0 ? 0 : arrayBytes(p.length);
        markDirty(layer, index);
    }

    /**
     * Replaces every layer with {@code layer} and fills it with {@code fps}: exact mode's growth.
     * The caller has removed this key's pages from state, so nothing is loaded; every page that
     * gets a bit is dirty, as is the metadata. Returns the number of fingerprints inserted.
     */
    long rebuild(BloomLayer layer, Iterable<Fingerprint> fps) throws Exception {
        meta.replaceLayers(layer);
        pages = new byte[1][][];
        dirty = new BitSet[1];
        dirtyPages = 0;
        bytes = 0;
        loadedPages = 0;
        long n = 0;
        for (Fingerprint fp : fps) {
            byte[] p = pageForWrite(0, BlockedBloom.page(fp, 0, layer), PageSource.NOTHING_STORED);
            BlockedBloom.put(fp, 0, layer, p);
            n++;
        }
        layer.count = n;
        metaDirty = true;
        return n;
    }

    /** The page for reading; {@link #ABSENT} if it holds no bits. */
    byte[] page(int layer, int index, PageSource source) throws Exception {
        byte[][] layerPages = layerPages(layer);
        if (index >= layerPages.length) {
            return ABSENT; // a fingerprint class's page beyond the table: never stored
        }
        byte[] p = layerPages[index];
        if (p == null) {
            byte[] stored = source.load(BlockedBloom.pageId(layer, index));
            // A copy: a heap state backend hands out its own object, which we must not mutate.
            p = stored == null ? ABSENT : stored.clone();
            layerPages[index] = p;
            bytes += p == ABSENT ? 0 : arrayBytes(p.length);
            if (stored != null) {
                loadedPages++;
            }
        }
        return p;
    }

    /** The page for writing: allocated if absent, and marked dirty. */
    byte[] pageForWrite(int layer, int index, PageSource source) throws Exception {
        byte[] p = page(layer, index, source);
        if (p == ABSENT) {
            p = new byte[meta.layer(layer).pageBytes()];
            pages[layer][index] = p;
            bytes += arrayBytes(p.length);
            loadedPages++;
        }
        markDirty(layer, index);
        return p;
    }

    private void markDirty(int layer, int index) {
        BitSet d = dirty[layer];
        if (d == null) {
            d = dirty[layer] = new BitSet();
        }
        if (!d.get(index)) {
            d.set(index);
            dirtyPages++;
        }
    }

    /** Adds the next layer to the metadata and the page table; -1 if the filter is saturated. */
    int grow() {
        int layer = meta.isFingerprints() ? meta.growClass() : meta.grow();
        if (layer < 0) {
            return -1;
        }
        byte[][][] p = new byte[layer + 1][][];
        System.arraycopy(pages, 0, p, 0, pages.length);
        BitSet[] d = new BitSet[layer + 1];
        System.arraycopy(dirty, 0, d, 0, dirty.length);
        pages = p;
        dirty = d;
        metaDirty = true;
        return layer;
    }

    private byte[][] layerPages(int layer) {
        byte[][] lp = pages[layer];
        if (lp == null) {
            int n =
                    meta.isFingerprints()
                            ? tableSize(meta.fingerprintClass(layer).pages())
                            : meta.layer(layer).pages;
            lp = pages[layer] = new byte[n][];
            bytes += align(16L + 4L * lp.length);
        }
        return lp;
    }

    boolean isDirty() {
        return metaDirty || dirtyPages > 0;
    }

    int dirtyPages() {
        return dirtyPages;
    }

    /** Hands each dirty page to {@code sink} and marks it clean. */
    void drainDirty(PageSink sink) throws Exception {
        for (int layer = 0; layer < dirty.length; layer++) {
            BitSet d = dirty[layer];
            if (d == null) {
                continue;
            }
            for (int i = d.nextSetBit(0); i >= 0; i = d.nextSetBit(i + 1)) {
                sink.write(BlockedBloom.pageId(layer, i), pages[layer][i]);
            }
            dirty[layer] = null; // a clean key holds no dirty-page sets
        }
        dirtyPages = 0;
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
        metaDirty = false;
        dirtyPages = 0;
        pages = new byte[0][][];
        dirty = new BitSet[0];
        bytes = 0;
        loadedPages = 0;
    }

    /** Heap bytes of the loaded pages alone, without page tables and object overhead. */
    long pageBytes() {
        long n = 0;
        for (byte[][] layer : pages) {
            if (layer != null) {
                for (byte[] p : layer) {
                    if (p != null) {
                        n += p.length;
                    }
                }
            }
        }
        return n;
    }

    /**
     * Heap held for this key while it is cached: pages and page tables as allocated, plus its
     * objects (this filter, its metadata and layers, the key, the dirty-page bit sets and the
     * cache's map entries), with object sizes of a 64-bit JVM with compressed references (12-byte
     * headers, 8-byte alignment). {@code FilterCacheFootprintTest} keeps this within 10% of what
     * JOL measures.
     */
    long bytes() {
        int layers = meta.layerCount();
        long n = bytes + FIXED_BYTES + PER_LAYER_BYTES * layers;
        if (isDirty()) {
            n += DIRTY_ENTRY_BYTES;
        }
        n += align(16L + 4L * Math.max(layers, 1)) * 2; // page-table and dirty-set arrays
        for (BitSet d : dirty) {
            if (d != null) {
                n += 24 + align(16L + (d.size() >> 3));
            }
        }
        return n + (key instanceof String k ? 24 + align(16L + k.length()) : 64);
    }

    /**
     * This object (48), the metadata (40) with its layer list (24 + 24; the other strategy's list
     * is a shared empty one), and the cache's LRU entry (40) with its share of the table (8).
     */
    private static final long FIXED_BYTES = 48 + 40 + 48 + 40 + 8;

    /** The cache's dirty-set entry, there while the key changed since its last write-back. */
    private static final long DIRTY_ENTRY_BYTES = 40;

    /** A {@link BloomLayer} object. */
    private static final long PER_LAYER_BYTES = 40;

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

    int loadedPages() {
        return loadedPages;
    }
}
