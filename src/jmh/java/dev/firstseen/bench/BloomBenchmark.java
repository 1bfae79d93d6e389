package dev.firstseen.bench;

import dev.firstseen.dedup.BlockedBloom;
import dev.firstseen.dedup.BloomLayer;
import dev.firstseen.dedup.Fingerprint;
import java.util.SplittableRandom;
import org.apache.flink.shaded.guava33.com.google.common.hash.BloomFilter;
import org.apache.flink.shaded.guava33.com.google.common.hash.Funnel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Bloom filter probe and insert: FirstSeen's blocked layer (all k bits in one 64-byte block of a 1
 * KiB page) against Guava's BloomFilter in the same run, both sized for {@code n} items at {@code
 * fpp} and half full. Keys are 128-bit fingerprints pre-generated in {@code @Setup}; probes mix
 * present and absent keys 50/50.
 *
 * <p>Run: {@code scripts/jmh BloomBenchmark}
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class BloomBenchmark extends ThroughputBenchmark {
    private static final int KEYS = 1 << 20;
    private static final int MASK = KEYS - 1;

    @Param({"1000000"})
    long n;

    @Param({"0.01", "0.0001"})
    double fpp;

    private Fingerprint[] keys;
    private BloomLayer layer;
    private byte[][] pages;
    private BloomFilter<Fingerprint> guava;
    private int index;

    private static final Funnel<Fingerprint> FUNNEL =
            (fp, sink) -> sink.putLong(fp.hi).putLong(fp.lo);

    @Setup(Level.Trial)
    public void setup() {
        SplittableRandom rnd = new SplittableRandom(7);
        keys = new Fingerprint[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = new Fingerprint(rnd.nextLong(), rnd.nextLong());
        }
        layer = BloomLayer.sized(n, fpp);
        pages = new byte[layer.pages][layer.pageBytes()];
        guava = BloomFilter.create(FUNNEL, n, fpp);
        // Half full: the even keys are in both filters.
        for (int i = 0; i < KEYS && i / 2 < n / 2; i += 2) {
            BlockedBloom.put(keys[i], 0, layer, pages[BlockedBloom.page(keys[i], 0, layer)]);
            guava.put(keys[i]);
        }
    }

    @Benchmark
    public boolean firstseenProbe() {
        Fingerprint fp = keys[index++ & MASK];
        return BlockedBloom.mightContain(fp, 0, layer, pages[BlockedBloom.page(fp, 0, layer)]);
    }

    @Benchmark
    public boolean guavaProbe() {
        return guava.mightContain(keys[index++ & MASK]);
    }

    @Benchmark
    public boolean firstseenInsert() {
        Fingerprint fp = keys[index++ & MASK];
        return BlockedBloom.put(fp, 0, layer, pages[BlockedBloom.page(fp, 0, layer)]);
    }

    @Benchmark
    public boolean guavaInsert() {
        return guava.put(keys[index++ & MASK]);
    }
}
