package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Page lookups in today's layout against the former one (issue 14, thirty-eighth session). A lookup
 * reads the header, then the high parts (their offset comes from the header), then one low part
 * (its index from the high parts): three dependent reads. The former layout (header, tail, low
 * bits, high parts) put each in another cache line; today's (header, tail, high parts, low bits)
 * puts the first two in one line or neighbouring ones. {@code today} probes pages with {@link
 * FingerprintPage#contains}; {@code former} the same pages in the former layout with the former
 * search, kept here. Pages of {@code entries} in the core and a full tail, {@code bits} wide,
 * values absent from them, fixed seed; {@code pages} of them, visited at random: 1,024 (about 1.2
 * MB, within this machine's L2 and L3) or 65,536 (about 80 MB, beyond them, as a subtask's pages
 * are).
 *
 * <p>Run: {@code scripts/jmh PageLayoutBenchmark}
 */
public class PageLayoutBenchmark extends ThroughputBenchmark {
    @Param({"1024", "65536"})
    int pages;

    @Param({"512"})
    int entries;

    @Param({"25"})
    int bits;

    private byte[][] today;
    private byte[][] former;
    private long[] absent;
    private int[] order;
    private int i;

    @Setup(Level.Trial)
    public void setup() {
        SplittableRandom rnd = new SplittableRandom(38);
        today = new byte[pages][];
        former = new byte[pages][];
        absent = new long[pages];
        long bound = 1L << bits;
        int want = entries + FingerprintPage.TAIL_MAX + 1;
        for (int p = 0; p < pages; p++) {
            long[] all = distinct(rnd, want, bound);
            long[] core = Arrays.copyOf(all, entries);
            Arrays.sort(core);
            byte[] page = FingerprintPage.encode(core, 0, entries, bits);
            for (int k = 0; k < FingerprintPage.TAIL_MAX; k++) {
                page = FingerprintPage.insert(page, bits, all[entries + k]);
            }
            today[p] = page;
            former[p] = formerLayout(page, bits);
            absent[p] = all[want - 1];
            if (findFormer(former[p], bits, absent[p])
                    || !findFormer(former[p], bits, core[entries / 2])
                    || !findFormer(former[p], bits, all[entries + 3])
                    || !Arrays.equals(FingerprintPage.fromStored(former[p], bits), page)) {
                throw new IllegalStateException("the former layout answers differently");
            }
        }
        order = new int[1 << 20];
        for (int k = 0; k < order.length; k++) {
            order[k] = rnd.nextInt(pages);
        }
    }

    /** {@code n} distinct values below {@code bound}, in random order. */
    private static long[] distinct(SplittableRandom rnd, int n, long bound) {
        while (true) {
            long[] v = new long[n];
            for (int k = 0; k < n; k++) {
                v[k] = rnd.nextLong(bound);
            }
            long[] sorted = v.clone();
            Arrays.sort(sorted);
            boolean repeats = false;
            for (int k = 1; k < n && !repeats; k++) {
                repeats = sorted[k] == sorted[k - 1];
            }
            if (!repeats) {
                return v;
            }
        }
    }

    /** {@code page} as the layout before the thirty-eighth session wrote it. */
    private static byte[] formerLayout(byte[] page, int s) {
        int[] pos = {0};
        int n = FingerprintPage.readVarint(page, pos);
        int t = page[pos[0]] & 0x7F;
        int l = FingerprintPage.lowBits(n, s);
        int tailEnd = pos[0] + 1 + (int) (((long) t * s + 7) >>> 3);
        int lower = (int) (((long) n * l + 7) >>> 3);
        int upper = page.length - tailEnd - lower;
        byte[] out = new byte[page.length];
        System.arraycopy(page, 0, out, 0, tailEnd);
        out[pos[0]] = (byte) t;
        System.arraycopy(page, tailEnd + upper, out, tailEnd, lower);
        System.arraycopy(page, tailEnd, out, tailEnd + lower, upper);
        return out;
    }

    @Benchmark
    public boolean today() {
        int p = order[i++ & (order.length - 1)];
        return FingerprintPage.contains(today[p], bits, absent[p]);
    }

    @Benchmark
    public boolean former() {
        int p = order[i++ & (order.length - 1)];
        return findFormer(former[p], bits, absent[p]);
    }

    /** The lookup of the former layout, as {@code FingerprintPage} had it until then. */
    private static boolean findFormer(byte[] page, int s, long u) {
        int[] pos = {0};
        int n = FingerprintPage.readVarint(page, pos);
        int t = page[pos[0]] & 0xFF;
        long tailBit = (pos[0] + 1L) * 8;
        for (int k = 0; k < t; k++) {
            if (FingerprintPage.read(page, tailBit + (long) k * s, s) == u) {
                return true;
            }
        }
        int l = FingerprintPage.lowBits(n, s);
        int lowerStart = pos[0] + 1 + (int) (((long) t * s + 7) >>> 3);
        int upperStart = lowerStart + (int) (((long) n * l + 7) >>> 3);
        int upperEnd = page.length;
        long bucket = u >>> l;
        long low = l == 0 ? 0 : u & ((1L << l) - 1);
        long p = FingerprintPage.select0(page, upperStart, upperEnd, bucket);
        if (p < 0) {
            return false;
        }
        long limit = (long) (upperEnd - upperStart) * 8;
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
