package dev.firstseen.bench;

import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.dedup.FingerprintFilterMath;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A prototype for {@link FilterStructureBenchmark}, not part of the job: issue 14's cuckoo filter
 * candidate (Fan, Andersen, Kaminsky, Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom",
 * CoNEXT 2014) grown the way approximate mode's filter grows. Class j is a cuckoo table for {@code
 * n0 · 4^j} URLs at the rate share {@link FingerprintFilterMath#share} of p: buckets of four {@code
 * f}-bit fingerprints with {@code f = ceil(log2(8 / p_j))} (a lookup compares 8 slots, each
 * matching with chance 2^-f), a power-of-two number of buckets holding the class at a load of at
 * most 95% (partial-key cuckoo hashing needs the power of two), and a stash for the fingerprint
 * left over when 500 kicks find no room. Its bytes are the slots' bits, counted whether filled or
 * not: a table cannot be split as a class's pages are, so the newest class is allocated whole.
 */
final class CuckooChain {
    private static final int SLOTS = 4;
    private static final int MAX_KICKS = 500;
    private static final double MAX_LOAD = 0.95;

    private final long n0;
    private final double p;
    private final List<Table> tables = new ArrayList<>();
    private final SplittableRandom rnd = new SplittableRandom(3);

    CuckooChain(long n0, double p) {
        this.n0 = n0;
        this.p = p;
    }

    boolean mightContain(Fingerprint fp) {
        for (Table t : tables) {
            if (t.contains(fp)) {
                return true;
            }
        }
        return false;
    }

    void insert(Fingerprint fp) {
        Table t = tables.isEmpty() ? null : tables.get(tables.size() - 1);
        if (t == null || t.count >= t.capacity) {
            int j = tables.size();
            t = new Table((long) (n0 * Math.pow(4, j)), p * FingerprintFilterMath.share(j));
            tables.add(t);
        }
        t.insert(fp, rnd);
    }

    /** The slots' and stashes' bits, in bytes. */
    long bytes() {
        long bits = 0;
        for (Table t : tables) {
            bits += (long) t.slots.length * t.f + (long) t.stash.size() * t.f;
        }
        return bits / 8;
    }

    long count() {
        long c = 0;
        for (Table t : tables) {
            c += t.count;
        }
        return c;
    }

    int layers() {
        return tables.size();
    }

    private static final class Table {
        final long capacity;
        final int f;
        final int bucketBits;
        final int[] slots; // fingerprint + 0 for empty: fingerprints are never 0
        final List<Integer> stash = new ArrayList<>();
        long count;

        Table(long capacity, double rate) {
            this.capacity = capacity;
            this.f = Math.min(31, (int) Math.ceil(Math.log(2.0 * SLOTS / rate) / Math.log(2)));
            long buckets = (long) Math.ceil(capacity / (SLOTS * MAX_LOAD));
            this.bucketBits = Math.max(1, 64 - Long.numberOfLeadingZeros(buckets - 1));
            this.slots = new int[SLOTS << bucketBits];
        }

        private int tag(Fingerprint fp) {
            int t = (int) (fp.lo >>> (64 - f));
            return t == 0 ? 1 : t;
        }

        private int bucket(Fingerprint fp) {
            return (int) (fp.hi >>> (64 - bucketBits));
        }

        private int other(int bucket, int tag) {
            return (bucket ^ (int) ((tag * 0x9E3779B97F4A7C15L) >>> (64 - bucketBits)))
                    & ((1 << bucketBits) - 1);
        }

        boolean contains(Fingerprint fp) {
            int tag = tag(fp);
            int b1 = bucket(fp);
            return has(b1, tag) || has(other(b1, tag), tag) || stash.contains(tag);
        }

        private boolean has(int b, int tag) {
            int s = b * SLOTS;
            return slots[s] == tag
                    || slots[s + 1] == tag
                    || slots[s + 2] == tag
                    || slots[s + 3] == tag;
        }

        private boolean place(int b, int tag) {
            int s = b * SLOTS;
            for (int i = s; i < s + SLOTS; i++) {
                if (slots[i] == 0) {
                    slots[i] = tag;
                    return true;
                }
            }
            return false;
        }

        void insert(Fingerprint fp, SplittableRandom rnd) {
            count++;
            int tag = tag(fp);
            int b = bucket(fp);
            if (place(b, tag) || place(other(b, tag), tag)) {
                return;
            }
            b = rnd.nextBoolean() ? b : other(b, tag);
            for (int kick = 0; kick < MAX_KICKS; kick++) {
                int i = b * SLOTS + rnd.nextInt(SLOTS);
                int victim = slots[i];
                slots[i] = tag;
                tag = victim;
                b = other(b, tag);
                if (place(b, tag)) {
                    return;
                }
            }
            stash.add(tag);
        }
    }
}
