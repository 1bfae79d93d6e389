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
     * of state. The pages keep no times, so the job-wide time-based rules are refused at start; a
     * record's own {@code revisit_after} works, its URL's time kept in the exact store beside the
     * pages (a URL first seen without one starts its revisit clock at the first record that has
     * one).
     */
    PAGES,
    /**
     * The option's default: {@link #PAGES}, unless the job's configuration needs what only {@link
     * #ENTRIES} keeps (every URL's time for {@code dedup.revisit-after} or {@code
     * dedup.forget-after}, or 128-bit fingerprints). Resolved once at start ({@link #resolve}).
     */
    AUTO;

    /**
     * The store this setting gives keys created from now on: itself, or for {@link #AUTO} the one
     * the job's time rules and fingerprint width allow.
     */
    public ExactStoreType resolve(boolean everyUrlNeedsATime, int fingerprintBits) {
        if (this != AUTO) {
            return this;
        }
        return everyUrlNeedsATime || fingerprintBits > 64 ? ENTRIES : PAGES;
    }
}
