package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The page kernels of approximate mode's filter on pages as a key's classes hold them: {@code
 * entries} in the core and a full tail, suffixes of {@code bits} (about 25 at 1e-4 and 19 at 1% for
 * pages of about 512: their entries cost 2.2 and 1.46 bytes). {@code merge}: the insert that finds
 * the tail full and merges it into the core (one insert in 17); {@code append}: an insert into a
 * tail with room; {@code probe}: a lookup of a value absent from the page. Pages and values are
 * drawn once with a fixed seed; each call takes the next of 1,024 pages, so the pages do not stay
 * in the first-level cache. {@code toStored} and {@code fromStored}: a page with a half-full tail
 * coded as approximate mode writes it to keyed state, and read back (forty-fourth session).
 *
 * <p>Run: {@code scripts/jmh FingerprintPageBenchmark}
 */
public class FingerprintPageBenchmark extends ThroughputBenchmark {
    private static final int PAGES = 1024;

    /**
     * Pages split once their class averages 512, so a page holds about 256 to 1,024; a merge from
     * 512 entries (or 256, or 1,024) widens the low parts and takes the decode-and-encode path.
     */
    @Param({"300", "700", "512"})
    int entries;

    @Param({"25", "19"})
    int bits;

    private byte[][] full; // core of entries, tail of TAIL_MAX
    private byte[][] roomy; // core of entries, tail of TAIL_MAX / 2
    private long[] absent;
    private byte[][] stored; // roomy pages Rice-coded, as keyed state holds them
    private int i;

    @Setup(Level.Trial)
    public void setup() {
        SplittableRandom rnd = new SplittableRandom(17);
        full = new byte[PAGES][];
        roomy = new byte[PAGES][];
        absent = new long[PAGES];
        long bound = 1L << bits;
        for (int p = 0; p < PAGES; p++) {
            TreeSet<Long> set = new TreeSet<>();
            while (set.size() < entries + FingerprintPage.TAIL_MAX + 1) {
                set.add(rnd.nextLong(bound));
            }
            long[] all = set.stream().mapToLong(Long::longValue).toArray();
            // Shuffle, then the first entries form the core, the next ones the tail, the last one
            // is the absent value.
            for (int k = all.length - 1; k > 0; k--) {
                int j = rnd.nextInt(k + 1);
                long t = all[k];
                all[k] = all[j];
                all[j] = t;
            }
            long[] core = Arrays.copyOf(all, entries);
            Arrays.sort(core);
            byte[] page = FingerprintPage.encode(core, 0, entries, bits);
            for (int k = 0; k < FingerprintPage.TAIL_MAX; k++) {
                page = FingerprintPage.insert(page, bits, all[entries + k]);
                if (k == FingerprintPage.TAIL_MAX / 2 - 1) {
                    roomy[p] = page;
                }
            }
            full[p] = page;
            absent[p] = all[all.length - 1];
        }
        stored = new byte[PAGES][];
        for (int p = 0; p < PAGES; p++) {
            stored[p] = FingerprintPage.toStored(roomy[p], bits);
        }
    }

    @Benchmark
    public byte[] merge() {
        int p = i++ & (PAGES - 1);
        return FingerprintPage.insert(full[p], bits, absent[p]);
    }

    @Benchmark
    public byte[] append() {
        int p = i++ & (PAGES - 1);
        return FingerprintPage.insert(roomy[p], bits, absent[p]);
    }

    @Benchmark
    public boolean probe() {
        int p = i++ & (PAGES - 1);
        return FingerprintPage.contains(full[p], bits, absent[p]);
    }

    /** A page with a half-full tail as approximate mode writes it to keyed state. */
    @Benchmark
    public byte[] toStored() {
        return FingerprintPage.toStored(roomy[i++ & (PAGES - 1)], bits);
    }

    /** The same page read back from keyed state, as a key's load does. */
    @Benchmark
    public byte[] fromStored() {
        return FingerprintPage.fromStored(stored[i++ & (PAGES - 1)], bits);
    }
}
