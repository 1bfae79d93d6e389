package dev.firstseen.dedup;

/**
 * Bloom filter sizing.
 *
 * <pre>
 * Cheat sheet (n = expected insertions, p = false-positive rate, m = bits, k = hash functions):
 *   m = ceil(-n ln p / (ln 2)^2)        bits for n items at rate p
 *   k = round(m / n * ln 2)             hash functions that minimize p for that m
 *   p = (1 - e^(-k n / m))^k            rate of a classic filter after n insertions
 *   n = 1,000,000, p = 0.01  =>  m = 9,585,059 bits (1.14 MiB), k = 7
 * </pre>
 *
 * Blocked filters (all k bits of an item in one 512-bit block) lose accuracy because blocks fill
 * unevenly: measured here, a blocked filter sized by the formulas above missed its target by 1.65x
 * at p = 0.001 and 5.5x at p = 0.0001. {@link #blockedBits} therefore grows m until the blocked
 * model of Putze, Sanders and Singler (WEA 2007) — a Poisson mixture over block loads — meets p.
 *
 * <p>Scalable layers (Almeida et al., "Scalable Bloom Filters", IPL 101(6), 2007): layer i holds
 * n0·4^i items at rate p0·(1/2)^i with p0 = p/2, so the compound rate stays below p however many
 * layers a key grows. That is how approximate mode grows a key's filter, since it keeps nothing
 * else to rebuild it from.
 *
 * <p>Exact mode grows a filter by rebuilding it instead: when its one layer is full, a layer for
 * {@link #REBUILD_GROWTH} times the key's URL count is filled again from the key's exact store. In
 * exact mode p is the share of new URLs that cost a RocksDB read, so such a layer is sized for its
 * <em>mean</em> rate over the fills it lives through, half full to full ({@link
 * #blocksForMeanRate}), not for its rate when full: at p = 1% that is 0.97 instead of 1.25 bytes
 * per URL of capacity, and the rate reaches about 2.6% just before the next rebuild. With the
 * filter between half full and full that comes to about 1.35 bytes per URL; the scalable chain
 * above costs more, because its later layers run at p/4, p/8, … and its newest layer is on average
 * half empty (see {@code docs/design/state.md}, State size and sizing).
 */
public final class BloomMath {
    private BloomMath() {}

    /** Each layer holds this many times the previous layer's items. */
    public static final int GROWTH = 4;

    /** Each layer's rate is this fraction of the previous layer's. */
    public static final double TIGHTENING = 0.5;

    /** A rebuilt layer holds this many times the URLs it is rebuilt with. */
    public static final int REBUILD_GROWTH = 2;

    /**
     * Exact-mode layers are sized for their mean rate from this fill on (see the class comment).
     */
    public static final double EXACT_FROM_FILL = 1.0 / REBUILD_GROWTH;

    /**
     * Most hash functions per item. Very low rates on few items in whole 512-bit blocks would ask
     * for more (one item in one block at 1e-8 "wants" 355); capped, the sizing adds bits instead.
     */
    public static final int MAX_HASHES = 64;

    /** Fills at which {@link #meanBlockedFpp} evaluates the rate (midpoints of equal steps). */
    private static final int MEAN_POINTS = 16;

    public static long optimalBits(long n, double p) {
        checkArgs(n, p);
        return (long) Math.ceil(-n * Math.log(p) / (Math.log(2) * Math.log(2)));
    }

    public static int optimalHashes(long n, long m) {
        return (int) Math.max(1, Math.round((double) m / n * Math.log(2)));
    }

    /**
     * Rate of a blocked filter: a block holds Poisson(n·B/m) items, and an item is a false positive
     * of a block with i items with the classic rate of a B-bit filter holding i items.
     */
    public static double blockedFpp(long n, long m, int k, int blockBits) {
        return blockedFpp((double) n, m, k, blockBits);
    }

    private static double blockedFpp(double n, long m, int k, int blockBits) {
        double lambda = n * blockBits / m;
        int max = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30);
        double logPmf = -lambda; // log Pois(0)
        double sum = 0;
        for (int i = 0; i <= max; i++) {
            if (i > 0) {
                logPmf += Math.log(lambda) - Math.log(i);
            }
            double perBlock = Math.pow(1 - Math.pow(1 - 1.0 / blockBits, (double) k * i), k);
            sum += Math.exp(logPmf) * perBlock;
        }
        return sum;
    }

    /** Hash count that minimizes {@link #blockedFpp} for n items in m bits. */
    public static int blockedHashes(long n, long m, int blockBits) {
        int best = Math.min(MAX_HASHES, optimalHashes(n, m));
        double bestFpp = blockedFpp(n, m, best, blockBits);
        for (int k = Math.max(1, best - 3); k <= Math.min(MAX_HASHES, best + 3); k++) {
            double f = blockedFpp(n, m, k, blockBits);
            if (f < bestFpp) {
                best = k;
                bestFpp = f;
            }
        }
        return best;
    }

    /**
     * Mean rate of a blocked filter that new items meet while it fills from {@code fromFill · n} to
     * {@code n} items: each insertion is preceded by one probe, so this is the share of new items
     * that the filter calls "maybe" over that stretch. {@code fromFill} 1 is the rate when full.
     */
    public static double meanBlockedFpp(long n, double fromFill, long m, int k, int blockBits) {
        if (fromFill >= 1) {
            return blockedFpp(n, m, k, blockBits);
        }
        double sum = 0;
        for (int i = 0; i < MEAN_POINTS; i++) {
            double fill = fromFill + (1 - fromFill) * (i + 0.5) / MEAN_POINTS;
            sum += blockedFpp(n * fill, m, k, blockBits);
        }
        return sum / MEAN_POINTS;
    }

    /** Hash count that minimizes {@link #meanBlockedFpp} for m bits. */
    public static int meanBlockedHashes(long n, double fromFill, long m, int blockBits) {
        if (fromFill >= 1) {
            return blockedHashes(n, m, blockBits);
        }
        // The best k for the mean lies between the best k at the end and at the start of the fill.
        int lo = Math.min(MAX_HASHES, Math.max(1, optimalHashes(n, m) - 1));
        int hi =
                Math.max(
                        lo,
                        Math.min(
                                MAX_HASHES,
                                optimalHashes(Math.max(1, (long) (n * fromFill)), m) + 1));
        int best = lo;
        double bestFpp = meanBlockedFpp(n, fromFill, m, lo, blockBits);
        for (int k = lo + 1; k <= hi; k++) {
            double f = meanBlockedFpp(n, fromFill, m, k, blockBits);
            if (f < bestFpp) {
                best = k;
                bestFpp = f;
            }
        }
        return best;
    }

    /**
     * Fewest {@code blockBits}-bit blocks for which {@link #meanBlockedFpp} from {@code fromFill}
     * to n items, with the best k, meets p. A bisection: the rate falls as blocks are added, and
     * the blocks that meet p when full ({@link #blockedBits}) certainly meet it on average.
     */
    public static long blocksForMeanRate(long n, double p, double fromFill, int blockBits) {
        checkArgs(n, p);
        if (!(fromFill >= 0 && fromFill <= 1)) {
            throw new IllegalArgumentException("fromFill must be in [0, 1], was " + fromFill);
        }
        long hi = (blockedBits(n, p, blockBits) + blockBits - 1) / blockBits;
        if (fromFill == 1) {
            return hi;
        }
        long lo = 0; // fails by convention: a filter has at least one block
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            long m = mid * blockBits;
            if (meanBlockedFpp(
                            n, fromFill, m, meanBlockedHashes(n, fromFill, m, blockBits), blockBits)
                    <= p) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * Bits a blocked filter needs for n items at rate p: {@link #optimalBits} grown in 2% steps
     * until {@link #blockedFpp} with the best k meets p.
     */
    public static long blockedBits(long n, double p, int blockBits) {
        long m = optimalBits(n, p);
        for (int i = 0; i < 200; i++) {
            if (blockedFpp(n, m, blockedHashes(n, m, blockBits), blockBits) <= p) {
                return m;
            }
            m = (long) Math.ceil(m * 1.02);
        }
        return m;
    }

    /** Rate of a classic Bloom filter with m bits and k hashes after n insertions. */
    public static double expectedFpp(long n, long m, int k) {
        return Math.pow(1 - Math.exp(-(double) k * n / m), k);
    }

    /** Capacity of layer {@code i} of a scalable filter whose first layer holds {@code n0}. */
    public static long layerCapacity(long n0, int i) {
        long c = n0;
        for (int j = 0; j < i; j++) {
            c = c > Long.MAX_VALUE / GROWTH ? Long.MAX_VALUE : c * GROWTH;
        }
        return c;
    }

    /**
     * Capacity of the layer an exact-mode filter is rebuilt into when it holds {@code n} URLs: the
     * smallest {@code n0 · 2^j} of at least {@code REBUILD_GROWTH · n}, so that capacities stay on
     * one ladder per initial size and a filter that was full (n = its capacity) doubles.
     */
    public static long rebuildCapacity(long n0, long n) {
        if (n0 <= 0 || n < 0) {
            throw new IllegalArgumentException("n0 must be > 0 and n >= 0, were " + n0 + ", " + n);
        }
        long want = n > Long.MAX_VALUE / REBUILD_GROWTH ? Long.MAX_VALUE : n * REBUILD_GROWTH;
        long c = n0;
        while (c < want && c <= Long.MAX_VALUE / 2) {
            c *= 2;
        }
        return c;
    }

    /** Target rate of layer {@code i} of a scalable filter with compound target {@code p}. */
    public static double layerFpp(double p, int i) {
        return p * (1 - TIGHTENING) * Math.pow(TIGHTENING, i);
    }

    private static void checkArgs(long n, double p) {
        if (n <= 0) {
            throw new IllegalArgumentException("Expected insertions must be > 0, was " + n);
        }
        if (!(p > 0.0 && p < 1.0)) {
            throw new IllegalArgumentException(
                    "False-positive rate must be > 0.0 and < 1.0, was " + p);
        }
    }
}
