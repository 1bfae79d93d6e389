package dev.firstseen.dedup;

import java.util.Arrays;

/**
 * L1: a direct-mapped table of fingerprints known to be in the seen-set of this operator instance.
 * A crawler's link stream repeats navigation links constantly; this answers those repeats with one
 * array read, before any hash map or state access. A newer fingerprint overwrites an older one in
 * its slot, so the table holds the most recent URLs per slot and never grows.
 *
 * <p>It is a pure cache of state, never checkpointed, and it lives exactly as long as its operator
 * instance. That is a correctness rule, not a detail: after a failure the state rolls back to the
 * last checkpoint, and a cache that outlived the rollback would suppress URLs whose first emission
 * was rolled back with it — pages that would never be fetched. Only add fingerprints whose
 * insertion into state has happened.
 *
 * <p>An entry matches a fingerprint on all its bits of identity: {@code hi} alone when {@code lo}
 * is a function of {@code hi} (64-bit fingerprints, {@link FingerprintFunction#bits()}), both
 * halves otherwise. Times are kept only once {@link #keepTimes()} was called; before, and for an
 * entry added without one, {@link #timeOf} answers {@link #UNKNOWN}.
 */
public final class RecentFingerprintCache {
    /*
     * Every record that reaches the dedup operator reads one slot here, drawn at random. Until the
     * thirty-eighth session a slot held hi, lo and a time: 24 bytes, 1.5 MB at the default 65,536
     * entries, more than a core's 1 MB of L2 on the development machine, and the thirty-seventh
     * session's profile of the 2 M stream put 1,673 of the dedup thread's 18,242 samples on that
     * read. With 64-bit fingerprints (the default) lo adds nothing to hi, and a time is read only
     * under a revisit or forget rule, so a slot is now hi alone: 512 KB at the default. Two
     * alternating pairs of invocations on that stream showed no change in CPU beyond their spread
     * (docs/design/benchmarks.md, End to end, thirty-eighth session); what it saves is 1 MB of heap a subtask, with
     * the same answers.
     */

    /** Slot i's {@code hi} at index i, or with {@code lo} kept, hi at 2i and lo at 2i + 1. */
    private final long[] table;

    /** Whether entries keep {@code lo}: it is not a function of {@code hi}. */
    private final boolean wide;

    /** Slot i's time, from {@link #keepTimes()} on; null before. */
    private long[] times;

    private final int mask;

    /** {@link #timeOf} of a fingerprint that is not cached. */
    public static final long ABSENT = Long.MIN_VALUE;

    /** The time of an entry added without one: a revisit rule must ask the exact store. */
    public static final long UNKNOWN = Long.MIN_VALUE + 1;

    /**
     * A cache for fingerprints of 128 bits of identity, which compares both halves.
     *
     * @param entries capacity, rounded up to a power of two; 0 disables the cache
     */
    public RecentFingerprintCache(int entries) {
        this(entries, 128);
    }

    /**
     * @param entries capacity, rounded up to a power of two; 0 disables the cache
     * @param fingerprintBits the bits of identity in a fingerprint ({@link
     *     FingerprintFunction#bits()}): with 64, {@code lo} must be a function of {@code hi}, and
     *     an entry keeps and compares {@code hi} alone
     */
    public RecentFingerprintCache(int entries, int fingerprintBits) {
        if (entries < 0) {
            throw new IllegalArgumentException("entries must be >= 0, was " + entries);
        }
        if (fingerprintBits != 64 && fingerprintBits != 128) {
            throw new IllegalArgumentException(
                    "fingerprint bits must be 64 or 128, was " + fingerprintBits);
        }
        int size = entries == 0 ? 0 : Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
        if (entries == 1) {
            size = 1;
        }
        wide = fingerprintBits == 128;
        table = new long[wide ? 2 * size : size];
        mask = size - 1;
    }

    /**
     * From now on entries keep the time they are added with; those already cached answer {@link
     * #UNKNOWN}. Called when a revisit or forget rule first needs a time.
     */
    public void keepTimes() {
        if (times == null) {
            times = new long[mask + 1];
            Arrays.fill(times, UNKNOWN);
        }
    }

    /** Whether {@link #keepTimes()} was called. */
    public boolean keepsTimes() {
        return times != null;
    }

    public boolean contains(Fingerprint fp) {
        return mask >= 0 && at(fp) >= 0;
    }

    /** {@code fp}'s slot if it holds {@code fp}, else -1. */
    private int at(Fingerprint fp) {
        if (fp.hi == 0) {
            return -1; // hi 0 marks an empty slot, so such a fingerprint is never cached
        }
        int s = slot(fp);
        if (!wide) {
            return table[s] == fp.hi ? s : -1;
        }
        return table[2 * s] == fp.hi && table[2 * s + 1] == fp.lo ? s : -1;
    }

    public void add(Fingerprint fp) {
        add(fp, UNKNOWN);
    }

    /** Adds {@code fp} with the time the URL was last emitted (for revisit rules). */
    public void add(Fingerprint fp, long lastEmitted) {
        if (mask < 0 || fp.hi == 0) {
            return;
        }
        int s = slot(fp);
        if (wide) {
            table[2 * s] = fp.hi;
            table[2 * s + 1] = fp.lo;
        } else {
            table[s] = fp.hi;
        }
        if (times != null) {
            times[s] = lastEmitted;
        }
    }

    /** The last-emitted time cached with {@code fp}, {@link #UNKNOWN}, or {@link #ABSENT}. */
    public long timeOf(Fingerprint fp) {
        int s = mask < 0 ? -1 : at(fp);
        return s < 0 ? ABSENT : times == null ? UNKNOWN : times[s];
    }

    /** Drops {@code fp} if it is cached: it left the seen-set (a forget op). */
    public void remove(Fingerprint fp) {
        int s = mask < 0 ? -1 : at(fp);
        if (s >= 0) {
            table[wide ? 2 * s : s] = 0;
        }
    }

    /** Drops everything: a whole key left the seen-set, and entries do not say their key. */
    public void clear() {
        Arrays.fill(table, 0);
    }

    public int capacity() {
        return mask + 1;
    }

    /** The bytes of its tables. */
    public long bytes() {
        return 8L * (table.length + (times == null ? 0 : times.length));
    }

    private int slot(Fingerprint fp) {
        return (int) (fp.lo ^ (fp.lo >>> 29)) & mask;
    }
}
