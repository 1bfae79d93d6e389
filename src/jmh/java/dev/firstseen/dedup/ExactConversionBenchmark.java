package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What converting a key of exact mode's fingerprint pages costs a job switched to approximate mode
 * ({@code dedup.approximate.convert-exact-keys}), as its subtask opens or in the record that loads
 * a key left exact: one key of {@code urls} fingerprints in stored pages (128 per page), read and
 * turned into approximate mode's filter at {@code rate} ({@code convert}, {@link
 * KeyFilter#fromExact}: classes built whole). Beside it, in the same run: the same conversion with
 * its larger classes merged a chunk at a time ({@code convertByMerges}), the same URLs inserted one
 * at a time into a new filter at that rate, as a conversion by inserts would ({@code
 * insertOneByOne}), and the exact key's pages read and decoded alone ({@code readExact}), the floor
 * of any conversion.
 *
 * <p>Run: {@code scripts/jmh ExactConversionBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ExactConversionBenchmark extends ThroughputBenchmark {
    @Param({"100000", "1000000"})
    int urls;

    @Param({"1e-2", "1e-4"})
    double rate;

    private final Map<Integer, byte[]> pages = new HashMap<>();
    private FilterMeta exactMeta;
    private Fingerprint[] fingerprints;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        SplittableRandom rnd = new SplittableRandom(19);
        KeyFilter f = new KeyFilter("k", FilterMeta.createExactFingerprints(128), true);
        fingerprints = new Fingerprint[urls];
        for (int i = 0; i < urls; i++) {
            fingerprints[i] = new Fingerprint(rnd.nextLong(), 0);
            f.insert(fingerprints[i], PageSource.NOTHING_STORED);
        }
        exactMeta = f.meta.copy();
        f.drainDirty((id, p) -> pages.put(id, f.stored(id, p)));
    }

    @Benchmark
    public long convert() throws Exception {
        KeyFilter exact = new KeyFilter("k", exactMeta.copy(), false);
        return KeyFilter.fromExact(
                        "k", FilterMeta.createFingerprints(512, rate), exact, null, pages::get)
                .meta
                .count();
    }

    /**
     * The same conversion by a builder limited to an eighth of the key's URLs, as {@link
     * KeyFilter#buildLimit} limits a key of more than about 190 M URLs in a 4 GB slot: its classes
     * past the limit are written as gathered and the rest merged into them a chunk at a time.
     */
    @Benchmark
    public long convertByMerges() throws Exception {
        KeyFilter exact = new KeyFilter("k", exactMeta.copy(), false);
        return KeyFilter.builder("k", FilterMeta.createFingerprints(512, rate), urls / 8)
                .addExact(exact, null, pages::get)
                .done()
                .meta
                .count();
    }

    @Benchmark
    public long insertOneByOne() throws Exception {
        KeyFilter f = new KeyFilter("k", FilterMeta.createFingerprints(512, rate), true);
        for (Fingerprint fp : fingerprints) {
            if (!f.mightContain(fp, PageSource.NOTHING_STORED)) {
                f.insert(fp, PageSource.NOTHING_STORED);
            }
        }
        return f.meta.count();
    }

    @Benchmark
    public long readExact() throws Exception {
        KeyFilter exact = new KeyFilter("k", exactMeta.copy(), false);
        long n = 0;
        for (int i = 0, end = exactMeta.pages(0); i < end; i++) {
            byte[] p = exact.page(0, i, pages::get);
            n += FingerprintPage.decode(p, exactMeta.suffixBits(0, i)).length;
        }
        return n;
    }
}
