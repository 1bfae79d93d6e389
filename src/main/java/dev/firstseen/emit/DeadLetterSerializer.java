package dev.firstseen.emit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.firstseen.record.DeadLetter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
 *  "raw_truncated":false,                           true if raw holds only the first bytes
 *  "source":{"topic":"urls","partition":0,"offset":7,"timestamp":1795000000000}}
 * }</pre>
 *
 * For a URL the canonicalizer rejected, {@code raw} is the URL taken from the message (the JSON
 * object's {@code url} field) and {@code source.timestamp} is -1.
 */
public final class DeadLetterSerializer {
    private DeadLetterSerializer() {}

    private static final JsonFactory JSON = new JsonFactory();

    public static SerializationSchema<DeadLetter> value() {
        return new Value();
    }

    private static final class Value implements SerializationSchema<DeadLetter> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(DeadLetter d) {
            return toJson(d);
        }
    }

    static byte[] toJson(DeadLetter d) {
        ByteArrayOutputStream bytes =
                new ByteArrayOutputStream(256 + (d.raw == null ? 0 : d.raw.length * 2));
        try (JsonGenerator g = JSON.createGenerator(bytes)) {
            g.writeStartObject();
            g.writeStringField("reason", d.reason);
            g.writeStringField("detail", d.detail);
            if (d.raw != null) {
                String text = utf8OrNull(d.raw);
                if (text != null) {
                    g.writeStringField("raw", text);
                } else {
                    g.writeStringField("raw_base64", Base64.getEncoder().encodeToString(d.raw));
                }
            } else {
                g.writeNullField("raw");
            }
            g.writeNumberField("raw_length", d.rawLength);
            g.writeBooleanField("raw_truncated", d.raw != null && d.raw.length < d.rawLength);
            g.writeObjectFieldStart("source");
            g.writeStringField("topic", d.source.topic);
            g.writeNumberField("partition", d.source.partition);
            g.writeNumberField("offset", d.source.offset);
            g.writeNumberField("timestamp", d.source.timestamp);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static String utf8OrNull(byte[] b) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
