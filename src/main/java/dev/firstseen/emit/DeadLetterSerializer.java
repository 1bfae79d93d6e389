package dev.firstseen.emit;

import dev.firstseen.emit.internal.JsonWriter;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.internal.StrictUtf8;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.util.Arrays;
import java.util.Base64;
import org.apache.flink.api.common.serialization.SerializationSchema;

/**
 * Dead-letter record format. No Kafka key. Value: one JSON object
 *
 * <pre>{@code
 * {"reason":"unsupported-scheme",                   stable code, see DeadLetterReason
 *  "detail":"scheme 'mailto' is not one of [http, https]",
 *  "raw":"mailto:a@b.c",                            the value, if it is UTF-8; else
 *  "raw_base64":"/w==",                             the value in base64
 *  "raw_length":13,                                 bytes of the whole value; -1 for null
 *  "raw_truncated":false,                           true if raw holds only part of the value
 *  "source":{"topic":"urls","partition":0,"offset":7,"timestamp":1795000000000}}
 * }</pre>
 *
 * For a URL the canonicalizer rejected, {@code raw} is the URL taken from the message (the JSON
 * object's {@code url} field). {@code source.timestamp} is the input record's Kafka timestamp.
 *
 * <p>The record's size is bounded by construction: {@code raw} (or {@code raw_base64}) takes at
 * most {@code maxRawBytes} bytes of JSON text, escapes included, and {@code detail} at most {@link
 * #MAX_DETAIL_BYTES}; the rest is fixed fields, so a dead letter is at most {@link #maxBytes(int)}.
 */
public final class DeadLetterSerializer {
    private DeadLetterSerializer() {}

    /** Longest {@code detail} text, in bytes of JSON. Details quote input, so they are cut too. */
    public static final int MAX_DETAIL_BYTES = 1024;

    /** Bytes of everything but {@code raw} and {@code detail}: field names, numbers, the topic. */
    static final int FIXED_BYTES = 512 + 249 * 6;

    /** The largest value this serializer writes with a {@code maxRawBytes} budget. */
    public static int maxBytes(int maxRawBytes) {
        return maxRawBytes + MAX_DETAIL_BYTES + FIXED_BYTES;
    }

    /** The Kafka value schema, keeping at most {@code maxRawBytes} of JSON text for the value. */
    public static SerializationSchema<DeadLetter> value(int maxRawBytes) {
        return new Value(maxRawBytes);
    }

    private static final class Value implements SerializationSchema<DeadLetter> {
        private static final long serialVersionUID = 1L;
        private final int maxRawBytes;
        private transient JsonWriter writer;
        private transient CharsetDecoder utf8;

        Value(int maxRawBytes) {
            this.maxRawBytes = maxRawBytes;
        }

        @Override
        public void open(InitializationContext context) {
            writer = new JsonWriter();
            utf8 = StrictUtf8.newDecoder();
        }

        @Override
        public byte[] serialize(DeadLetter d) {
            return toJson(d, writer, utf8, maxRawBytes);
        }
    }

    static byte[] toJson(DeadLetter d, JsonWriter w, CharsetDecoder utf8, int maxRawBytes) {
        w.reset().raw("{\"reason\":").string(d.reason).raw(",\"detail\":");
        if (d.detail == null) {
            w.nullValue();
        } else {
            w.string(d.detail, MAX_DETAIL_BYTES);
        }
        boolean whole = d.raw == null || d.raw.length == d.rawLength;
        if (d.raw == null) {
            w.raw(",\"raw\":null");
        } else {
            String text = utf8OrNull(d.raw, utf8);
            if (text != null) {
                w.raw(",\"raw\":");
                whole &= w.string(text, maxRawBytes);
            } else {
                // Base64 turns 3 bytes into 4 characters: keep what fits in the budget.
                int keep = Math.min(d.raw.length, maxRawBytes / 4 * 3);
                whole &= keep == d.raw.length;
                byte[] kept = keep == d.raw.length ? d.raw : Arrays.copyOf(d.raw, keep);
                w.raw(",\"raw_base64\":").string(Base64.getEncoder().encodeToString(kept));
            }
        }
        w.raw(",\"raw_length\":")
                .number(d.rawLength)
                .raw(",\"raw_truncated\":")
                .bool(!whole)
                .raw(",\"source\":{\"topic\":")
                .string(d.source.topic)
                .raw(",\"partition\":")
                .number(d.source.partition)
                .raw(",\"offset\":")
                .number(d.source.offset)
                .raw(",\"timestamp\":")
                .number(d.source.timestamp)
                .raw("}}");
        return w.toBytes();
    }

    private static String utf8OrNull(byte[] b, CharsetDecoder utf8) {
        try {
            return utf8.reset().decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
