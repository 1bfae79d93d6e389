package dev.firstseen.bench;

import crawlercommons.domains.EffectiveTldFinder;
import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.keying.KeyMode;
import dev.firstseen.keying.PartitionKeyer;
import dev.firstseen.tools.CrawlStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Canonicalize (and key) realistic messy crawler URLs, with crawler-commons' BasicURLNormalizer
 * measured in the same run as the baseline. The URLs come from {@link CrawlStream} (seeded: Zipf
 * domains, case, ports, fragments, dot segments, escapes, white space, IDN and IP hosts, 1% bad),
 * pre-generated in {@code @Setup}; the timed loop walks them with {@code index++ & MASK}.
 *
 * <p>Run: {@code scripts/jmh CanonicalizeBenchmark}
 */
public class CanonicalizeBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 16;
    private static final int MASK = SIZE - 1;

    private String[] urls;
    private int index;
    private Canonicalizer canonicalizer;
    private PartitionKeyer keyer;
    private BasicURLNormalizer crawlerCommons;

    @Setup
    public void setup() {
        // The job decodes before it canonicalizes; so do both sides here.
        urls = new CrawlSample(42, 0.01).decodedUrls(SIZE);
        canonicalizer = Canonicalizer.defaults();
        keyer = new PartitionKeyer(KeyMode.DOMAIN);
        crawlerCommons = new BasicURLNormalizer();
    }

    @Benchmark
    public String firstseenCanonicalize() {
        return canonicalizer.canonicalize(urls[index++ & MASK]).url();
    }

    @Benchmark
    public String firstseenCanonicalizeAndKey() {
        Canonicalization c = canonicalizer.canonicalize(urls[index++ & MASK]);
        return c.isAccepted() ? keyer.keyOf(c) : null;
    }

    /**
     * Canonicalize and key without the keyer's host memo: every URL pays the public suffix lookup,
     * as {@link PartitionKeyer#keyOf} did before the memo. The baseline for it, in the same run.
     */
    @Benchmark
    public String firstseenCanonicalizeAndKeyWithoutMemo() {
        Canonicalization c = canonicalizer.canonicalize(urls[index++ & MASK]);
        if (!c.isAccepted()) {
            return null;
        }
        if (c.hostType() != Canonicalization.HostType.DOMAIN) {
            return c.host();
        }
        String domain = EffectiveTldFinder.getAssignedDomain(c.host(), false, false);
        return domain == null || domain.isEmpty() ? c.host() : domain;
    }

    @Benchmark
    public String crawlerCommonsNormalize() {
        return crawlerCommons.filter(urls[index++ & MASK]);
    }
}
