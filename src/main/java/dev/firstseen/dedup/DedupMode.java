package dev.firstseen.dedup;

/** How the dedup operator answers a Bloom filter "maybe". */
public enum DedupMode {
    /**
     * Every "maybe" is confirmed against the exact store (128-bit fingerprints in RocksDB), so a
     * new URL is never dropped. Costs ~40 bytes of RocksDB state per distinct URL and one point
     * read per "maybe".
     */
    EXACT,
    /**
     * A "maybe" counts as seen; there is no exact store. State is only the filter (~1.2 bytes per
     * URL at 1%), but a new URL is dropped with the configured false-positive probability — such a
     * page is never fetched. A job that ran approximate cannot later switch to exact: the exact
     * store would be missing everything seen so far.
     */
    APPROXIMATE
}
