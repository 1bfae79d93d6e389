package dev.firstseen.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firstseen.record.DeadLetterReason;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a record value as either a bare URL (UTF-8 text) or a JSON object with a string field
 * {@code url}; every other field of the object is metadata, passed through to the frontier
 * unchanged. Not thread-safe (it keeps a decoder); one instance per subtask.
 */
public final class MessageDecoder implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Outcome: {@link #url} set on success, {@link #reason} set on failure. */
    public static final class Decoded {
        public final String url;
        public final String metaJson;
        public final DeadLetterReason reason;
        public final String detail;

        private Decoded(String url, String metaJson, DeadLetterReason reason, String detail) {
            this.url = url;
            this.metaJson = metaJson;
            this.reason = reason;
            this.detail = detail;
        }

        static Decoded ok(String url, String metaJson) {
            return new Decoded(url, metaJson, null, null);
        }

        static Decoded fail(DeadLetterReason reason, String detail) {
            return new Decoded(null, null, reason, detail);
        }
    }

    private final int maxRecordBytes;
    private final int maxUrlLength;
    private transient CharsetDecoder utf8;
    private transient ObjectMapper json;

    /**
     * @param maxRecordBytes largest record value accepted, in bytes
     * @param maxUrlLength longest URL accepted, in characters after trimming
     */
    public MessageDecoder(int maxRecordBytes, int maxUrlLength) {
        this.maxRecordBytes = maxRecordBytes;
        this.maxUrlLength = maxUrlLength;
    }

    public Decoded decode(byte[] value) {
        if (value == null || value.length == 0) {
            return Decoded.fail(
                    DeadLetterReason.EMPTY, value == null ? "null value" : "empty value");
        }
        if (value.length > maxRecordBytes) {
            return Decoded.fail(
                    DeadLetterReason.TOO_LONG,
                    "record has " + value.length + " bytes, more than " + maxRecordBytes);
        }
        String text;
        try {
            text = decoder().decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return Decoded.fail(DeadLetterReason.INVALID_UTF8, "value is not valid UTF-8");
        }
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return Decoded.fail(DeadLetterReason.EMPTY, "value is only white space");
        }
        if (trimmed.charAt(0) == '{') {
            return decodeJson(trimmed);
        }
        return checkUrl(trimmed, null);
    }

    private Decoded decodeJson(String text) {
        JsonNode node;
        try {
            node = mapper().readTree(text);
        } catch (JsonProcessingException e) {
            return Decoded.fail(
                    DeadLetterReason.BAD_JSON, "not a JSON object: " + e.getOriginalMessage());
        }
        if (!(node instanceof ObjectNode)) {
            return Decoded.fail(DeadLetterReason.BAD_JSON, "not a JSON object");
        }
        ObjectNode object = (ObjectNode) node;
        JsonNode url = object.remove("url");
        if (url == null || !url.isTextual() || url.textValue().isBlank()) {
            return Decoded.fail(
                    DeadLetterReason.MISSING_URL,
                    url == null
                            ? "JSON object has no field 'url'"
                            : "field 'url' is not a non-empty string");
        }
        return checkUrl(url.textValue().strip(), object.isEmpty() ? null : object.toString());
    }

    private Decoded checkUrl(String url, String metaJson) {
        if (url.length() > maxUrlLength) {
            return Decoded.fail(
                    DeadLetterReason.TOO_LONG,
                    "URL has " + url.length() + " characters, more than " + maxUrlLength);
        }
        return Decoded.ok(url, metaJson);
    }

    private CharsetDecoder decoder() {
        if (utf8 == null) {
            utf8 =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        return utf8;
    }

    private ObjectMapper mapper() {
        if (json == null) {
            json = new ObjectMapper();
        }
        return json;
    }
}
