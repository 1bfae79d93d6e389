package dev.firstseen.dedup;

/** How exact mode keeps the seen-set of keys created from now on. */
public enum ExactStoreType {
    /**
     * One RocksDB map-state entry per URL, its fingerprint and the time it was last emitted, behind
     * a Bloom filter that spares the read for most new URLs. Keeps times, so {@code
     * dedup.revisit-after}, {@code dedup.forget-after} and a record's {@code revisit_after} work.
     * About 12 bytes of entry per URL, plus RocksDB's own overhead, and one point read for each
     * repeat that the recent-fingerprint cache does not answer.
     */
    ENTRIES,
    /**
     * Every fingerprint of a key, 63 of its bits, Elias-Fano coded in pages of keyed state ({@link
     * FingerprintPage}), as approximate mode's filter holds its prefixes, and cached on the heap
     * ({@code dedup.bloom.cache-size}). The pages are the seen-set: no Bloom filter, no per-URL
     * entry, no read for a repeat while the key is cached. About 6 to 7 bytes per URL of heap and
     * of state. Keeps no times: the time-based rules are refused at start.
     */
    PAGES
}
