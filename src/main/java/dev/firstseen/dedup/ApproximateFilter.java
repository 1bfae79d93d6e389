package dev.firstseen.dedup;

/** The per-key filter of approximate mode for keys created from now on. */
public enum ApproximateFilter {
    /**
     * Compressed fingerprints ({@link FingerprintFilterMath}): about 2.4 bytes per URL at a rate of
     * 1e-4 and 1.6 at 1% on the benchmark stream; can forget a URL.
     */
    FINGERPRINTS,
    /**
     * The scalable blocked Bloom filter of earlier versions: about 9 bytes per URL at 1e-4; cannot
     * forget. Keys stored with it keep it whatever this setting says.
     */
    BLOOM
}
