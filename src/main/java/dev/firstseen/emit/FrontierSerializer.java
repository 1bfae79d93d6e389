package dev.firstseen.emit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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

    private static final JsonFactory JSON = new JsonFactory();

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

        @Override
        public byte[] serialize(FrontierRecord r) {
            return toJson(r);
        }
    }

    static byte[] toJson(FrontierRecord r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(r.url.length() * 2 + 160);
        try (JsonGenerator g = JSON.createGenerator(bytes)) {
            g.writeStartObject();
            g.writeStringField("url", r.url);
            g.writeStringField("canonical", r.canonical);
            g.writeStringField("key", r.key);
            g.writeNumberField("first_seen", r.firstSeen);
            g.writeObjectFieldStart("source");
            g.writeStringField("topic", r.topic);
            g.writeNumberField("partition", r.partition);
            g.writeNumberField("offset", r.offset);
            g.writeEndObject();
            if (r.metaJson != null) {
                g.writeFieldName("meta");
                g.writeRawValue(r.metaJson);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
