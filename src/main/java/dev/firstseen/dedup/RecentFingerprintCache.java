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
    /**
     * Slot {@code i} is {@code table[3i .. 3i+2]}: hi, lo, time. One array rather than three keeps
     * a slot in one cache line (mostly), so a lookup in a table far larger than the CPU's caches
     * misses once, not three times.
     */
    private final long[] table;

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
        table = new long[3 * size];
        mask = size - 1;
    }

    public boolean contains(Fingerprint fp) {
        return mask >= 0 && at(fp) >= 0;
    }

    /** The index of {@code fp}'s slot in {@link #table} if it holds {@code fp}, else -1. */
    private int at(Fingerprint fp) {
        if ((fp.hi | fp.lo) == 0) {
            return -1; // (0,0) marks an empty slot, so that fingerprint is never cached
        }
        int i = 3 * slot(fp);
        return table[i] == fp.hi && table[i + 1] == fp.lo ? i : -1;
    }

    public void add(Fingerprint fp) {
        add(fp, UNKNOWN);
    }

    /** Adds {@code fp} with the time the URL was last emitted (for revisit rules). */
    public void add(Fingerprint fp, long lastEmitted) {
        if (mask < 0) {
            return;
        }
        int i = 3 * slot(fp);
        table[i] = fp.hi;
        table[i + 1] = fp.lo;
        table[i + 2] = lastEmitted;
    }

    /** The last-emitted time cached with {@code fp}, {@link #UNKNOWN}, or {@link #ABSENT}. */
    public long timeOf(Fingerprint fp) {
        int i = mask < 0 ? -1 : at(fp);
        return i < 0 ? ABSENT : table[i + 2];
    }

    /** Drops {@code fp} if it is cached: it left the seen-set (a forget op). */
    public void remove(Fingerprint fp) {
        int i = mask < 0 ? -1 : at(fp);
        if (i >= 0) {
            table[i] = 0;
            table[i + 1] = 0;
        }
    }

    /** Drops everything: a whole key left the seen-set, and entries do not say their key. */
    public void clear() {
        java.util.Arrays.fill(table, 0);
    }

    public int capacity() {
        return table.length / 3;
    }

    private int slot(Fingerprint fp) {
        return (int) (fp.lo ^ (fp.lo >>> 29)) & mask;
    }
}
