package dev.firstseen.bench;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.keying.KeyMode;
import dev.firstseen.keying.PartitionKeyer;
import dev.firstseen.tools.CrawlStream;
import java.util.function.Supplier;

/**
 * The input every JMH benchmark reads, set up in one place: {@link CrawlStream} values (2,000
 * domains, Zipf-skewed, seeded), decoded, canonicalized and keyed as the job does it, with the
 * job's default limits. Benchmarks take what they need in {@code @Setup}, never inside a measured
 * method.
 */
final class CrawlSample implements Supplier<CrawlSample.Item> {
    static final int DOMAINS = 2000;

    /**
     * One input record and what the job's first stages make of it. {@code canonical} is null if the
     * decoder refused the value; {@code key} is null unless the URL was accepted.
     */
    record Item(
            byte[] value, MessageDecoder.Decoded decoded, Canonicalization canonical, String key) {
        boolean accepted() {
            return key != null;
        }
    }

    private final CrawlStream stream;
    private final MessageDecoder decoder = new MessageDecoder(1 << 16, 8192, 16 << 10);
    private final Canonicalizer canonicalizer = Canonicalizer.defaults();
    private final PartitionKeyer keyer = new PartitionKeyer(KeyMode.DOMAIN);

    /** A stream with seed {@code seed} and a share {@code badRate} of bad records. */
    CrawlSample(long seed, double badRate) {
        this.stream = new CrawlStream(seed, DOMAINS, badRate);
    }

    @Override
    public Item get() {
        byte[] value = stream.next();
        MessageDecoder.Decoded d = decoder.decode(value);
        if (d.url == null) {
            return new Item(value, d, null, null);
        }
        Canonicalization c = canonicalizer.canonicalize(d.url);
        return new Item(value, d, c, c.isAccepted() ? keyer.keyOf(c) : null);
    }

    /** The next {@code n} URLs the decoder accepted, before canonicalization. */
    String[] decodedUrls(int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; ) {
            Item item = get();
            if (item.decoded.url != null) {
                out[i++] = item.decoded.url;
            }
        }
        return out;
    }

    /** The next {@code n} records whose URL was accepted and keyed. */
    Item[] accepted(int n) {
        Item[] out = new Item[n];
        for (int i = 0; i < n; ) {
            Item item = get();
            if (item.accepted()) {
                out[i++] = item;
            }
        }
        return out;
    }
}
