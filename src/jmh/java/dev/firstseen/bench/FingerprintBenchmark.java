package dev.firstseen.bench;

import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.dedup.FingerprintFunction;
import dev.firstseen.dedup.RecentFingerprintCache;
import dev.firstseen.dedup.internal.SipHash;
import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.flink.shaded.guava33.com.google.common.hash.HashFunction;
import org.apache.flink.shaded.guava33.com.google.common.hash.Hashing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Fingerprinting canonical URLs (FirstSeen's MurmurHash3 x64-128 over the ASCII chars, against
 * Guava's murmur3_128 over UTF-8 bytes, the same function) and the L1 recent-URL cache (a lookup
 * and an insert per record, on the Zipf-skewed crawl stream).
 *
 * <p>Run: {@code scripts/jmh FingerprintBenchmark}
 */
public class FingerprintBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 16;
    private static final int MASK = SIZE - 1;

    private String[] canonical;
    private Fingerprint[] fingerprints;
    private RecentFingerprintCache l1;
    private HashFunction guava;
    private FingerprintFunction keyed;
    private FingerprintFunction keyed64;
    private Mac hmac;
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
        keyed = FingerprintFunction.newSecret(128);
        keyed64 = FingerprintFunction.newSecret(64);
        try {
            hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(new byte[16], "HmacSHA256"));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Benchmark
    public Fingerprint firstseenFingerprint() {
        return Fingerprint.of(canonical[index++ & MASK]);
    }

    /** The keyed 128-bit function (SipHash-2-4-128 under a secret key). */
    @Benchmark
    public Fingerprint firstseenKeyedSipHash24() {
        return keyed.of(canonical[index++ & MASK]);
    }

    /** The keyed function new jobs use: SipHash-2-4-64, the second half mixed from the first. */
    @Benchmark
    public Fingerprint firstseenKeyedSipHash24x64() {
        return keyed64.of(canonical[index++ & MASK]);
    }

    /** SipHash-1-3-128, the cheaper round count (Rust's default hasher), for comparison. */
    @Benchmark
    public long sipHash13() {
        return SipHash.hash128(
                3, 4, 1, 3, canonical[index++ & MASK].getBytes(StandardCharsets.UTF_8))[0];
    }

    /** A truncated cryptographic MAC, the other option issue 12 names: HMAC-SHA-256. */
    @Benchmark
    public byte[] hmacSha256() {
        return hmac.doFinal(canonical[index++ & MASK].getBytes(StandardCharsets.ISO_8859_1));
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
