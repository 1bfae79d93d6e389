package dev.firstseen.dedup;

/**
 * One key's filter held on the heap alone, without keyed state: what the operator keeps per key,
 * for benchmarks and sizing measurements. Not thread-safe.
 */
public final class StandaloneFilter {
    private final KeyFilter filter;

    private StandaloneFilter(FilterMeta meta) {
        this.filter = new KeyFilter("standalone", meta, true);
    }

    /** Approximate mode's compressed-fingerprint filter. */
    public static StandaloneFilter fingerprints(long expectedUrls, double rate) {
        return new StandaloneFilter(FilterMeta.createFingerprints(expectedUrls, rate));
    }

    /** Approximate mode's scalable Bloom filter of earlier versions. */
    public static StandaloneFilter bloom(long expectedUrls, double rate) {
        return new StandaloneFilter(FilterMeta.create(expectedUrls, rate));
    }

    public boolean mightContain(Fingerprint fp) throws Exception {
        return filter.mightContain(fp, PageSource.NOTHING_STORED);
    }

    public void insert(Fingerprint fp) throws Exception {
        filter.insert(fp, PageSource.NOTHING_STORED);
    }

    /** URLs inserted. */
    public long count() {
        return filter.meta.count();
    }

    /** Bytes of the pages alone. */
    public long pageBytes() {
        return filter.pageBytes();
    }

    /** Heap as the filter cache counts it: pages, page tables and per-key objects. */
    public long heapBytes() {
        return filter.bytes();
    }

    /** Layers (Bloom) or classes (fingerprints). */
    public int layers() {
        return filter.meta.layerCount();
    }
}
