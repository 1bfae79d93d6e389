package dev.firstseen.bench;

import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.dedup.StandaloneFilter;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.flink.shaded.guava33.com.google.common.hash.BloomFilter;
import org.apache.flink.shaded.guava33.com.google.common.hash.Funnel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Approximate mode's candidate structures for one key, as they grow: the compressed-fingerprint
 * filter (strategy 2), the scalable blocked Bloom filter it replaced, a chain of cuckoo tables
 * grown on the same schedule ({@link CuckooChain}, a prototype), and Guava's BloomFilter sized for
 * the final count up front (the ideal a growing filter cannot reach). Each is filled with {@code n}
 * random fingerprints from nothing; the trial setup prints its bytes per URL and its rate measured
 * on 2,000,000 absent fingerprints, the benchmarks time a probe (half present, half absent) and an
 * insert of a new fingerprint into the full filter.
 *
 * <p>Run: {@code scripts/jmh FilterStructureBenchmark}
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class FilterStructureBenchmark extends ThroughputBenchmark {
    private static final int KEYS = 1 << 20;
    private static final int MASK = KEYS - 1;

    @Param({"1000000"})
    int n;

    @Param({"0.01", "0.0001"})
    double fpp;

    @Param({"fingerprints", "bloom", "guava", "cuckoo"})
    String structure;

    private Fingerprint[] probes;
    private Fingerprint[] fresh;
    private StandaloneFilter filter;
    private BloomFilter<Fingerprint> guava;
    private CuckooChain cuckoo;
    private int index;
    private int freshIndex;

    private static final Funnel<Fingerprint> FUNNEL =
            (fp, sink) -> sink.putLong(fp.hi).putLong(fp.lo);

    @Setup(Level.Trial)
    public void setup() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        probes = new Fingerprint[KEYS];
        for (int i = 0; i < n; i++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            put(fp);
            if (i % 2 == 0 && i / 2 < KEYS / 2) {
                probes[i / 2 * 2] = fp;
            }
        }
        for (int i = 0; i < KEYS; i++) {
            if (probes[i] == null) {
                probes[i] = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            }
        }
        // No false negatives: every inserted fingerprint among the probes is found.
        for (int i = 0; i < n && i < KEYS; i += 2) {
            if (!contains(probes[i])) {
                throw new IllegalStateException(structure + " lost an inserted fingerprint");
            }
        }
        int falsePositives = 0;
        int trials = 2_000_000;
        for (int i = 0; i < trials; i++) {
            if (contains(new Fingerprint(rnd.nextLong(), rnd.nextLong()))) {
                falsePositives++;
            }
        }
        fresh = new Fingerprint[KEYS];
        for (int i = 0; i < KEYS; i++) {
            fresh[i] = new Fingerprint(rnd.nextLong(), rnd.nextLong());
        }
        String size =
                cuckoo != null
                        ? String.format(
                                Locale.ROOT,
                                "slots %.3f B/URL, %d tables",
                                (double) cuckoo.bytes() / cuckoo.count(),
                                cuckoo.layers())
                        : guava != null
                                ? String.format(
                                        Locale.ROOT,
                                        "bits %.3f B/URL (sized for n up front)",
                                        guavaBits(n, fpp) / 8.0 / n)
                                : String.format(
                                        Locale.ROOT,
                                        "pages %.3f B/URL, heap %.3f B/URL, %d layers or classes",
                                        (double) filter.pageBytes() / filter.count(),
                                        (double) filter.heapBytes() / filter.count(),
                                        filter.layers());
        System.out.printf(
                Locale.ROOT,
                "%n[candidate] %s n=%d fpp=%s: %s; measured rate %.2e (%d of %d)%n",
                structure,
                n,
                fpp,
                size,
                (double) falsePositives / trials,
                falsePositives,
                trials);
    }

    private void put(Fingerprint fp) throws Exception {
        switch (structure) {
            case "guava" -> {
                if (guava == null) {
                    guava = BloomFilter.create(FUNNEL, n, fpp);
                }
                guava.put(fp);
            }
            case "fingerprints" -> {
                if (filter == null) {
                    filter = StandaloneFilter.fingerprints(128, fpp);
                }
                if (!filter.mightContain(fp)) {
                    filter.insert(fp);
                }
            }
            case "bloom" -> {
                if (filter == null) {
                    filter = StandaloneFilter.bloom(128, fpp);
                }
                if (!filter.mightContain(fp)) {
                    filter.insert(fp);
                }
            }
            case "cuckoo" -> {
                if (cuckoo == null) {
                    cuckoo = new CuckooChain(128, fpp);
                }
                if (!cuckoo.mightContain(fp)) {
                    cuckoo.insert(fp);
                }
            }
            default -> throw new IllegalArgumentException(structure);
        }
    }

    private boolean contains(Fingerprint fp) throws Exception {
        if (cuckoo != null) {
            return cuckoo.mightContain(fp);
        }
        return guava != null ? guava.mightContain(fp) : filter.mightContain(fp);
    }

    @Benchmark
    public boolean probe() throws Exception {
        return contains(probes[index++ & MASK]);
    }

    /** A new fingerprint into the filter: each call adds one, so the filter keeps growing. */
    @Benchmark
    public boolean insert() throws Exception {
        Fingerprint fp = fresh[freshIndex++ & MASK];
        if (guava != null) {
            return guava.put(fp);
        }
        if (cuckoo != null) {
            cuckoo.insert(fp);
            return true;
        }
        filter.insert(fp);
        return true;
    }

    /** Guava's size for n items at rate p: the classic optimum, m = -n ln p / (ln 2)^2. */
    private static double guavaBits(long n, double p) {
        return Math.ceil(-n * Math.log(p) / (Math.log(2) * Math.log(2)));
    }
}
