package dev.firstseen.dedup;

import java.util.Arrays;
import java.util.BitSet;
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

    final Object key;
    final FilterMeta meta;
    boolean metaDirty;
    private byte[][][] pages;
    private BitSet[] dirty;
    private int dirtyPages;
    private long bytes;
    private int loadedPages;

    /** Exact mode's rebuild of this filter in progress, or null. */
    private Rebuild rebuild;

    /**
     * Bit {@code l} set: layer {@code l} was created while this copy was cached (a new key, a grown
     * layer, a rebuilt filter), so every page of it that state holds came from here and a page
     * missing from the table is known to be empty. Such a page costs no state read, which for
     * RocksDB is a miss, the dearest lookup (memtable and every level). Layers past 31 are read.
     */
    private int createdHere;

    KeyFilter(Object key, FilterMeta meta, boolean isNew) {
        this.key = key;
        this.meta = meta;
        this.metaDirty = isNew;
        int n = meta.layerCount();
        this.pages = new byte[n][][];
        this.dirty = new BitSet[n];
        this.createdHere = isNew ? -1 : 0;
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
     * While a rebuild is in progress a Bloom filter does not grow (its next form is being built)
     * and {@code fp} goes to the new layer too.
     */
    boolean insert(Fingerprint fp, PageSource source) throws Exception {
        if (meta.isFingerprints()) {
            return insertFingerprint(fp, source);
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
        pages = new byte[][][] {r.pages};
        BitSet d = new BitSet(r.pages.length);
        loadedPages = 0;
        for (int i = 0; i < r.pages.length; i++) {
            if (r.pages[i] != null) {
                d.set(i);
                loadedPages++;
            }
        }
        dirty = new BitSet[] {loadedPages == 0 ? null : d};
        dirtyPages = loadedPages;
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
            this.bytes = align(16L + 4L * pages.length);
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

    /** The page for reading; {@link #ABSENT} if it holds no bits. */
    byte[] page(int layer, int index, PageSource source) throws Exception {
        byte[][] layerPages = layerPages(layer);
        if (index >= layerPages.length) {
            return ABSENT; // a fingerprint class's page beyond the table: never stored
        }
        byte[] p = layerPages[index];
        if (p == null && layer < 32 && (createdHere >>> layer & 1) != 0) {
            p = layerPages[index] = ABSENT;
        } else if (p == null) {
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
        if (layer < 32) {
            createdHere |= 1 << layer;
        }
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
        rebuild = null;
        metaDirty = false;
        dirtyPages = 0;
        pages = new byte[0][][];
        dirty = new BitSet[0];
        bytes = 0;
        loadedPages = 0;
        createdHere = 0;
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
