package dev.firstseen.dedup;

/**
 * L1: a direct-mapped table of fingerprints known to be in the seen-set of this operator instance.
 * A crawler's link stream repeats navigation links constantly; this answers those repeats with two
 * array reads, before any hash map or state access. A newer fingerprint overwrites an older one in
 * its slot, so the table holds the most recent URLs per slot and never grows.
 *
 * <p>It is a pure cache of state, never checkpointed, and it lives exactly as long as its operator
 * instance. That is a correctness rule, not a detail: after a failure the state rolls back to the
 * last checkpoint, and a cache that outlived the rollback would suppress URLs whose first emission
 * was rolled back with it — pages that would never be fetched. Only add fingerprints whose
 * insertion into state has happened.
 */
public final class RecentFingerprintCache {
    private final long[] his;
    private final long[] los;
    private final long[] times;
    private final int mask;

    /** {@link #timeOf} of a fingerprint that is not cached. */
    public static final long ABSENT = Long.MIN_VALUE;

    /** The time of an entry added without one: a revisit rule must ask the exact store. */
    public static final long UNKNOWN = Long.MIN_VALUE + 1;

    /**
     * @param entries capacity, rounded up to a power of two; 0 disables the cache
     */
    public RecentFingerprintCache(int entries) {
        if (entries < 0) {
            throw new IllegalArgumentException("entries must be >= 0, was " + entries);
        }
        int size = entries == 0 ? 0 : Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
        if (entries == 1) {
            size = 1;
        }
        his = new long[size];
        los = new long[size];
        times = new long[size];
        mask = size - 1;
    }

    public boolean contains(Fingerprint fp) {
        if (mask < 0 || (fp.hi | fp.lo) == 0) {
            return false; // (0,0) marks an empty slot, so that fingerprint is never cached
        }
        int i = slot(fp);
        return his[i] == fp.hi && los[i] == fp.lo;
    }

    public void add(Fingerprint fp) {
        add(fp, UNKNOWN);
    }

    /** Adds {@code fp} with the time the URL was last emitted (for revisit rules). */
    public void add(Fingerprint fp, long lastEmitted) {
        if (mask < 0) {
            return;
        }
        int i = slot(fp);
        his[i] = fp.hi;
        los[i] = fp.lo;
        times[i] = lastEmitted;
    }

    /** The last-emitted time cached with {@code fp}, {@link #UNKNOWN}, or {@link #ABSENT}. */
    public long timeOf(Fingerprint fp) {
        return contains(fp) ? times[slot(fp)] : ABSENT;
    }

    /** Drops {@code fp} if it is cached: it left the seen-set (a forget op). */
    public void remove(Fingerprint fp) {
        if (contains(fp)) {
            int i = slot(fp);
            his[i] = 0;
            los[i] = 0;
        }
    }

    /** Drops everything: a whole key left the seen-set, and entries do not say their key. */
    public void clear() {
        java.util.Arrays.fill(his, 0);
        java.util.Arrays.fill(los, 0);
    }

    public int capacity() {
        return his.length;
    }

    private int slot(Fingerprint fp) {
        return (int) (fp.lo ^ (fp.lo >>> 29)) & mask;
    }
}
