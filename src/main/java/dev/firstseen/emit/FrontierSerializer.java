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
 * {@code meta} is present only for JSON input with fields besides {@code url}.
 */
public final class FrontierSerializer {
    private FrontierSerializer() {}

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
        public byte[] serialize(FrontierRecord r) {
            if (writer == null) {
                writer = new JsonWriter();
            }
            return toJson(r, writer);
        }
    }

    static byte[] toJson(FrontierRecord r) {
        return toJson(r, new JsonWriter());
    }

    static byte[] toJson(FrontierRecord r, JsonWriter w) {
        w.reset()
                .raw("{\"url\":")
                .string(r.url)
                .raw(",\"canonical\":")
                .string(r.canonical)
                .raw(",\"key\":")
                .string(r.key)
                .raw(",\"first_seen\":")
                .number(r.firstSeen)
                .raw(",\"source\":{\"topic\":")
                .string(r.source.topic)
                .raw(",\"partition\":")
                .number(r.source.partition)
                .raw(",\"offset\":")
                .number(r.source.offset)
                .raw('}');
        if (r.metaJson != null) {
            w.raw(",\"meta\":").rawUtf8(r.metaJson);
        }
        return w.raw('}').toBytes();
    }
}
