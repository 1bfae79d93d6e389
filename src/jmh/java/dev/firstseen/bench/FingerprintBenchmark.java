package dev.firstseen.bench;

import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.dedup.RecentFingerprintCache;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.flink.shaded.guava33.com.google.common.hash.HashFunction;
import org.apache.flink.shaded.guava33.com.google.common.hash.Hashing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Fingerprinting canonical URLs (FirstSeen's MurmurHash3 x64-128 over the ASCII chars, against
 * Guava's murmur3_128 over UTF-8 bytes, the same function) and the L1 recent-URL cache (a lookup
 * and an insert per record, on the Zipf-skewed crawl stream).
 *
 * <p>Run: {@code scripts/jmh FingerprintBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class FingerprintBenchmark {
    private static final int SIZE = 1 << 16;
    private static final int MASK = SIZE - 1;

    private String[] canonical;
    private Fingerprint[] fingerprints;
    private RecentFingerprintCache l1;
    private HashFunction guava;
    private int index;

    @Setup
    public void setup() {
        CrawlSample.Item[] items = new CrawlSample(42, 0).accepted(SIZE);
        canonical = new String[SIZE];
        fingerprints = new Fingerprint[SIZE];
        for (int i = 0; i < SIZE; i++) {
            canonical[i] = items[i].canonical().url();
            fingerprints[i] = Fingerprint.of(canonical[i]);
        }
        l1 = new RecentFingerprintCache(65536);
        guava = Hashing.murmur3_128();
    }

    @Benchmark
    public Fingerprint firstseenFingerprint() {
        return Fingerprint.of(canonical[index++ & MASK]);
    }

    @Benchmark
    public long guavaMurmur3() {
        return guava.hashString(canonical[index++ & MASK], StandardCharsets.UTF_8).asLong();
    }

    @Benchmark
    public boolean l1LookupAndInsert() {
        Fingerprint fp = fingerprints[index++ & MASK];
        boolean hit = l1.contains(fp);
        if (!hit) {
            l1.add(fp);
        }
        return hit;
    }
}
