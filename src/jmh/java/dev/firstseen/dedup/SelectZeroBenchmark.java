package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.Arrays;
import java.util.HashSet;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A page lookup's search of the unary high parts from whichever end is nearer (forty-sixth session)
 * against the search from the start alone that it replaced. {@code bothEnds} probes with {@link
 * FingerprintPage#contains}; {@code fromStart} runs the same lookup with the search from the start,
 * kept here. Pages of {@code entries} in the core and a full tail, {@code bits} wide (25: a class
 * at 1e-4, 19: at 1%), probed with values absent from them, fixed seed; {@code pages} of them
 * visited at random: 1,024 (within this machine's L2 and L3 for pages of 512) or 16,384 (beyond
 * them). Since the forty-fifth session approximate mode's pages split once their class averages
 * 1,024 entries, so they hold about 512 to 2,048.
 *
 * <p>Run: {@code scripts/jmh SelectZeroBenchmark}
 */
public class SelectZeroBenchmark extends ThroughputBenchmark {
    @Param({"1024", "16384"})
    int pages;

    @Param({"512", "1024", "2048"})
    int entries;

    @Param({"25", "19"})
    int bits;

    private byte[][] page;
    private long[] absent;
    private int[] order;
    private int i;

    @Setup(Level.Trial)
    public void setup() {
        SplittableRandom rnd = new SplittableRandom(46);
        page = new byte[pages][];
        absent = new long[pages];
        long bound = 1L << bits;
        int want = entries + FingerprintPage.TAIL_MAX + 1;
        for (int p = 0; p < pages; p++) {
            long[] all = distinct(rnd, want, bound);
            long[] core = Arrays.copyOf(all, entries);
            Arrays.sort(core);
            byte[] pg = FingerprintPage.encode(core, 0, entries, bits);
            for (int k = 0; k < FingerprintPage.TAIL_MAX; k++) {
                pg = FingerprintPage.insert(pg, bits, all[entries + k]);
            }
            page[p] = pg;
            absent[p] = all[want - 1];
            if (fromStart(pg, bits, absent[p])
                    || FingerprintPage.contains(pg, bits, absent[p])
                    || !fromStart(pg, bits, core[rnd.nextInt(entries)])
                    || !fromStart(pg, bits, all[entries + 3])) {
                throw new IllegalStateException("the two searches answer differently");
            }
        }
        order = new int[1 << 20];
        for (int k = 0; k < order.length; k++) {
            order[k] = rnd.nextInt(pages);
        }
    }

    /** {@code n} distinct values below {@code bound}, in the random order they were drawn. */
    private static long[] distinct(SplittableRandom rnd, int n, long bound) {
        HashSet<Long> seen = new HashSet<>();
        long[] v = new long[n];
        for (int k = 0; k < n; ) {
            long x = rnd.nextLong(bound);
            if (seen.add(x)) {
                v[k++] = x;
            }
        }
        return v;
    }

    @Benchmark
    public boolean bothEnds() {
        int p = order[i++ & (order.length - 1)];
        return FingerprintPage.contains(page[p], bits, absent[p]);
    }

    @Benchmark
    public boolean fromStart() {
        int p = order[i++ & (order.length - 1)];
        return fromStart(page[p], bits, absent[p]);
    }

    /** {@link FingerprintPage#contains} as it was until the forty-sixth session. */
    private static boolean fromStart(byte[] page, int s, long u) {
        int[] pos = {0};
        int n = FingerprintPage.readVarint(page, pos);
        int t = page[pos[0]] & 0x7F;
        long tailBit = (pos[0] + 1L) * 8;
        for (int k = 0; k < t; k++) {
            if (FingerprintPage.read(page, tailBit + (long) k * s, s) == u) {
                return true;
            }
        }
        int l = FingerprintPage.lowBits(n, s);
        int upperStart = pos[0] + 1 + (int) (((long) t * s + 7) >>> 3);
        int lowerStart = page.length - (int) (((long) n * l + 7) >>> 3);
        long bucket = u >>> l;
        long low = l == 0 ? 0 : u & ((1L << l) - 1);
        long p = FingerprintPage.select0(page, upperStart, lowerStart, bucket);
        if (p < 0) {
            return false;
        }
        long limit = (long) (lowerStart - upperStart) * 8;
        for (long q = p; q < limit && bit(page, upperStart, q); q++) {
            long k = q - bucket;
            if (k >= n) {
                break;
            }
            if (FingerprintPage.read(page, (long) lowerStart * 8 + k * l, l) == low) {
                return true;
            }
        }
        return false;
    }

    private static boolean bit(byte[] a, int start, long q) {
        return (a[start + (int) (q >>> 3)] & (1 << (q & 7))) != 0;
    }
}
