package dev.firstseen.emit;

import dev.firstseen.emit.internal.JsonWriter;
import dev.firstseen.record.FrontierRecord;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializationSchema;

/**
 * Frontier record format. Kafka key: the partition key (UTF-8), so the frontier topic is
 * partitioned by domain or host like the dedup state. Value: one JSON object
 *
 * <pre>{@code
 * {"url":"HTTP://Example.com:80/a/./b#top",        original URL, trimmed: fetch this
 *  "canonical":"http://example.com/a/b",            dedup identity
 *  "key":"example.com",                             partition key
 *  "first_seen":1795000000000,                      epoch millis when FirstSeen first saw it
 *  "source":{"topic":"urls","partition":0,"offset":42},
 *  "meta":{...}}                                    other fields of a JSON input, unchanged
 * }</pre>
 *
 * {@code meta} is present only for JSON input with fields besides {@code url}; {@code
 * "meta_omitted":true} takes its place when they were larger than {@code frontier.max-meta-size}.
 * {@code "forced":true} marks a record a {@code force} op emitted whatever the seen-set said;
 * {@code "revisit":true, "last_emitted":<ms>} one emitted again by {@code dedup.revisit-after}. The
 * size of a value is bounded by the URL length limit and that option ({@link #maxBytes}).
 *
 * <p>Written by hand rather than with Jackson: {@code scripts/jmh JsonWriteBenchmark} measures it
 * against a reused Jackson generator writing the same fields (docs/design/benchmarks.md,
 * Micro-benchmarks).
 */
public final class FrontierSerializer {
    private FrontierSerializer() {}

    /**
     * The largest value written for URLs of at most {@code maxUrlChars} characters and metadata of
     * at most {@code maxMetaBytes}: the original URL may escape each character to 6 bytes, the
     * canonical one is ASCII, a key is at most 253 characters, plus the topic name and field names.
     */
    public static long maxBytes(int maxUrlChars, long maxMetaBytes) {
        return 6L * maxUrlChars + maxUrlChars + 253 + maxMetaBytes + 249 * 6 + 512;
    }

    /** Kafka record key. */
    public static SerializationSchema<FrontierRecord> key() {
        return new Key();
    }

    /** Kafka record value. */
    public static SerializationSchema<FrontierRecord> value() {
        return new Value();
    }

    private static final class Key implements SerializationSchema<FrontierRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(FrontierRecord r) {
            return r.key.getBytes(StandardCharsets.UTF_8);
        }
    }

    private static final class Value implements SerializationSchema<FrontierRecord> {
        private static final long serialVersionUID = 1L;
        private transient JsonWriter writer;

        @Override
        public void open(InitializationContext context) {
            writer = new JsonWriter();
        }

        @Override
        public byte[] serialize(FrontierRecord r) {
            return toJson(r, writer);
        }
    }

    private static final byte[] URL = ascii("{\"url\":");
    private static final byte[] CANONICAL = ascii(",\"canonical\":");
    private static final byte[] KEY = ascii(",\"key\":");
    private static final byte[] FIRST_SEEN = ascii(",\"first_seen\":");
    private static final byte[] TOPIC = ascii(",\"source\":{\"topic\":");
    private static final byte[] PARTITION = ascii(",\"partition\":");
    private static final byte[] OFFSET = ascii(",\"offset\":");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] toJson(FrontierRecord r, JsonWriter w) {
        w.reset().raw(URL);
        int from = w.mark();
        w.string(r.url);
        int to = w.mark();
        w.raw(CANONICAL);
        // Most extracted links are already canonical: then the URL's escaped bytes serve twice.
        if (r.canonical.equals(r.url)) {
            w.again(from, to);
        } else {
            w.string(r.canonical);
        }
        w.raw(KEY)
                .string(r.key)
                .raw(FIRST_SEEN)
                .number(r.firstSeen)
                .raw(TOPIC)
                .string(r.source.topic)
                .raw(PARTITION)
                .number(r.source.partition)
                .raw(OFFSET)
                .number(r.source.offset)
                .raw('}');
        if (r.metaJson != null) {
            w.raw(",\"meta\":").rawUtf8(r.metaJson);
        } else if (r.metaOmitted) {
            w.raw(",\"meta_omitted\":true");
        }
        if (r.forced) {
            w.raw(",\"forced\":true");
        }
        if (r.revisit) {
            w.raw(",\"revisit\":true,\"last_emitted\":").number(r.lastEmitted);
        }
        return w.raw('}').toBytes();
    }
}
