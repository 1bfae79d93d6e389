package dev.firstseen.dedup;

/**
 * Sizing of strategy 2, the compressed-fingerprint filter of approximate mode.
 *
 * <p>A key's filter is a chain of classes. Class j holds the {@code w_j}-bit prefixes of the
 * fingerprints inserted while it was the newest class, at most {@code c_j} of them, with {@code c_j
 * ≥ n0 · 2^j} (n0 the expected URLs per key). A new URL matches one of class j's prefixes with
 * probability at most {@code c_j / 2^w_j}; each class gets the share {@code 1 / ((j+1)(j+2))} of
 * the target rate p, and those shares sum to 1 over all j, so
 *
 * <pre>
 *   rate ≤ Σ_j c_j / 2^w_j ≤ Σ_j p / ((j+1)(j+2)) = p      for any number of classes,
 *   w_j = ceil(log2(n0 · 4^j · (j+1)(j+2) / p)),   c_j = floor(2^w_j · p / ((j+1)(j+2)))
 * </pre>
 *
 * A sorted set of n values of w bits costs about {@code w - log2 n + 2} bits each in Elias-Fano
 * code ({@link FingerprintPage}), so a full class costs {@code log2(1/p) + log2((j+1)(j+2)) + 2}
 * bits per URL: 16.3 at p = 1e-4 for class 0, 17.9 for class 1, 20.2 for class 4. Classes grow by
 * {@link #GROWTH}, not 2, so that a key of 10^7 URLs reaches class 8, not 16, and pays 6.5 extra
 * bits instead of 8.2 (a larger class is partly empty for longer, which a page split keeps cheap:
 * pages stay about {@link FingerprintClass#PAGE_ENTRIES} entries whatever the class's fill). A
 * filter that does not know how large its key will get must pay such a growing premium (Pagh,
 * Segev, Wieder, "How to Approximate a Set Without Knowing Its Size in Advance", FOCS 2013: at
 * least log log n extra bits); widening the newest fingerprints as the set grows is how
 * InfiniFilter (Dayan et al., SIGMOD 2023) pays it too. Past {@link
 * FingerprintPage#MAX_SUFFIX_BITS} bits no class can be added (about 2^40 URLs at p = 1e-4 and n0 =
 * 128): the newest class then keeps filling and its rate rises, as a saturated Bloom chain's does.
 */
public final class FingerprintFilterMath {
    private FingerprintFilterMath() {}

    /** Each class holds this many times the previous one's URLs. */
    public static final int GROWTH = 4;

    /** Class j's share of the target rate. */
    public static double share(int j) {
        return 1.0 / ((j + 1.0) * (j + 2.0));
    }

    /**
     * Class {@code j} of a filter for {@code n0} URLs at first and rate {@code p}; null if none.
     */
    public static FingerprintClass classFor(long n0, double p, int j) {
        double want = n0 * Math.pow(GROWTH, j);
        double budget = p * share(j);
        int w = (int) Math.ceil(Math.log(want / budget) / Math.log(2));
        // Floating point may land one off either way: the smallest w whose capacity is enough.
        while (w > 1 && Math.floor(Math.scalb(budget, w - 1)) >= want) {
            w--;
        }
        while (Math.floor(Math.scalb(budget, w)) < want) {
            w++;
        }
        if (w > FingerprintPage.MAX_SUFFIX_BITS) {
            return null;
        }
        long capacity = (long) Math.floor(Math.scalb(budget, w));
        return new FingerprintClass(w, capacity, 0, 0, 0);
    }

    /**
     * The rate a new URL meets in {@code meta} now: the chance that its prefix matches one stored
     * in some class, {@code Σ count_j / 2^w_j}. A union bound, and exact as long as no two classes
     * match one fingerprint, which holds while URLs go in only when no class matched them: a prefix
     * of class j then lies where no earlier class matches.
     */
    public static double rate(FilterMeta meta) {
        double r = 0;
        for (int c = 0; c < meta.classCount(); c++) {
            r += Math.scalb((double) meta.entries(c), -meta.width(c));
        }
        return r;
    }
}
