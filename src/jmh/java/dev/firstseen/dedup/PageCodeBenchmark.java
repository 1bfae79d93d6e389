package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Approximate mode's page code against a Golomb-coded prototype ({@link GolombPage}), issue 14's
 * "Golomb-compressed sorted fingerprints per page": bytes per entry and lookups per second on the
 * same pages. Each trial builds 4,096 pages of {@code n} distinct random {@code s}-bit values, the
 * shape of a class's pages in approximate mode: 16 bits and 327 values is a full first class at 1%
 * split in two (its pages' values 200 apart on average), 23 bits and 419 the same at 1e-4 (20,000
 * apart), and half as many values a half-full class. The setup prints the bytes per entry and
 * checks that every code finds each value of its pages and no other (a lookup is exact on the
 * stored values); a probe looks up half present, half absent values.
 *
 * <p>Run: {@code scripts/jmh PageCodeBenchmark}
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class PageCodeBenchmark extends ThroughputBenchmark {
    private static final int PAGES = 4096;
    private static final int PROBES = 1 << 20;
    private static final int MASK = PROBES - 1;

    /** Suffix bits and values a page, as {@code s:n}. */
    @Param({"16:327", "16:164", "23:419", "23:210"})
    String shape;

    /**
     * {@code elias-fano}: {@link FingerprintPage}; {@code golomb}: decoded from the page's start;
     * {@code golomb-8}: with eight restart points.
     */
    @Param({"elias-fano", "golomb", "golomb-8"})
    String code;

    private int s;
    private int r;
    private byte[][] pages;
    private int[] probePage;
    private long[] probeValue;
    private int index;

    @Setup(Level.Trial)
    public void setup() {
        String[] parts = shape.split(":");
        s = Integer.parseInt(parts[0]);
        int n = Integer.parseInt(parts[1]);
        r = code.equals("golomb-8") ? 3 : 0;
        SplittableRandom rnd = new SplittableRandom(7);
        pages = new byte[PAGES][];
        long[][] values = new long[PAGES][];
        long bytes = 0;
        for (int i = 0; i < PAGES; i++) {
            values[i] = distinct(rnd, n, s);
            pages[i] = encode(values[i], n);
            bytes += code.equals("elias-fano") ? pages[i].length : GolombPage.bytes(pages[i]);
        }
        probePage = new int[PROBES];
        probeValue = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            int page = rnd.nextInt(PAGES);
            probePage[i] = page;
            probeValue[i] = i % 2 == 0 ? values[page][rnd.nextInt(n)] : rnd.nextLong(1L << s);
        }
        check(values, rnd);
        System.out.printf(
                Locale.ROOT,
                "%n[page code] %s, %d-bit values, %d a page (mean gap %.0f): %.3f bits an entry"
                        + " (%.2f over log2 of the mean gap)%n",
                code,
                s,
                n,
                Math.scalb(1.0, s) / n,
                bytes * 8.0 / ((long) PAGES * n),
                bytes * 8.0 / ((long) PAGES * n) - Math.log(Math.scalb(1.0, s) / n) / Math.log(2));
    }

    /** Every stored value found; every other value of 200,000 random ones not. */
    private void check(long[][] values, SplittableRandom rnd) {
        for (int i = 0; i < PAGES; i += 64) {
            for (long v : values[i]) {
                if (!contains(pages[i], v)) {
                    throw new IllegalStateException(code + " lost value " + v + " of page " + i);
                }
            }
        }
        for (int k = 0; k < 200_000; k++) {
            int i = rnd.nextInt(PAGES);
            long v = rnd.nextLong(1L << s);
            boolean stored = Arrays.binarySearch(values[i], v) >= 0;
            if (contains(pages[i], v) != stored) {
                throw new IllegalStateException(code + " answered wrongly for " + v);
            }
        }
    }

    private byte[] encode(long[] sorted, int n) {
        return code.equals("elias-fano")
                ? FingerprintPage.encode(sorted, 0, n, s)
                : GolombPage.encode(sorted, n, s, r);
    }

    private boolean contains(byte[] page, long v) {
        return code.equals("elias-fano")
                ? FingerprintPage.contains(page, s, v)
                : GolombPage.contains(page, s, r, v);
    }

    private static long[] distinct(SplittableRandom rnd, int n, int s) {
        long[] v = new long[n];
        int k = 0;
        while (k < n) {
            v[k++] = rnd.nextLong(1L << s);
            if (k == n) {
                Arrays.sort(v);
                k = dedupe(v);
            }
        }
        return v;
    }

    /** Sorts out repeats, returns how many distinct values lead; the rest are drawn again. */
    private static int dedupe(long[] v) {
        int k = 1;
        for (int i = 1; i < v.length; i++) {
            if (v[i] != v[k - 1]) {
                v[k++] = v[i];
            }
        }
        return k;
    }

    @Benchmark
    public boolean probe() {
        int i = index++ & MASK;
        return contains(pages[probePage[i]], probeValue[i]);
    }
}
