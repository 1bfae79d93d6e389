package dev.firstseen.dedup;

import dev.firstseen.bench.ThroughputBenchmark;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * What a key read from state pays for its page journal: one exact-mode key of {@code base}
 * fingerprints in stored pages (128 per page) and a journal of {@code journal} more, inserted again
 * over them ({@code replay}, the pause of the record that reads the key). Beside it, in the same
 * run: the same key read with its pages written whole and probed for those {@code journal}
 * fingerprints ({@code wholePagesProbe}), which touches the same pages and is what answering them
 * costs without a journal. A journal is capped at 65,536 fingerprints ({@link
 * KeyFilter#MAX_JOURNAL}), so {@code journal=65536} is the longest replay.
 *
 * <p>Run: {@code scripts/jmh PageJournalBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PageJournalBenchmark extends ThroughputBenchmark {
    @Param({"262144"})
    int base;

    @Param({"4096", "65536"})
    int journal;

    private final Map<Integer, byte[]> basePages = new HashMap<>();
    private final Map<Integer, byte[]> wholePages = new HashMap<>();
    private FilterMeta baseMeta;
    private FilterMeta wholeMeta;
    private List<byte[]> elements;
    private Fingerprint[] journaled;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        SplittableRandom rnd = new SplittableRandom(17);
        KeyFilter f = new KeyFilter("k", FilterMeta.createExactFingerprints(128), true);
        for (int i = 0; i < base; i++) {
            f.insert(new Fingerprint(rnd.nextLong(), rnd.nextLong()), PageSource.NOTHING_STORED);
        }
        baseMeta = f.meta.copy().withJournal(true);
        f.drainDirty((id, p) -> basePages.put(id, p.clone()));
        f.wroteWhole(true);
        journaled = new Fingerprint[journal];
        for (int i = 0; i < journal; i++) {
            journaled[i] = new Fingerprint(rnd.nextLong(), 0);
            f.insert(journaled[i], basePages::get);
        }
        elements = List.of(Objects.requireNonNull(f.takePending(1.0), "journal past its share"));
        wholeMeta = f.meta.copy();
        wholePages.putAll(basePages);
        f.drainDirty((id, p) -> wholePages.put(id, p.clone()));
    }

    @Benchmark
    public long replay() throws Exception {
        return StoredFilter.read(baseMeta, basePages::get, elements).count();
    }

    @Benchmark
    public int wholePagesProbe() throws Exception {
        StoredFilter f = StoredFilter.read(wholeMeta, wholePages::get, List.of());
        int found = 0;
        for (Fingerprint fp : journaled) {
            if (f.mightContain(fp)) {
                found++;
            }
        }
        return found;
    }
}
