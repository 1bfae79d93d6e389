package dev.firstseen.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.Op;
import dev.firstseen.record.internal.StrictUtf8;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;

/**
 * Reads a record value as either a bare URL (UTF-8 text) or a JSON object with a string field
 * {@code url}. Every other field of the object is metadata, passed through to the frontier as the
 * very text it had in the input (numbers such as {@code 1e999} and escapes such as {@code \ud800}
 * are not re-encoded). A leading UTF-8 byte-order mark is skipped.
 *
 * <p>JSON is read strictly: a duplicate key at any level, content after the object, or nesting
 * deeper than {@link #MAX_NESTING} make the record {@code bad-json}, so that no two readers of a
 * record can disagree about which URL it carries, and the frontier record (which nests the metadata
 * one level deeper) stays within the nesting a default JSON reader accepts (1,000). A flat object
 * of plain strings, numbers and literals, what link extractors mostly send, is read in one pass by
 * {@link FlatJson}, at less than half of Jackson's cost; anything else, and every record that is
 * refused, by Jackson, whose reading the fast path matches field for field.
 *
 * <p>Not thread-safe (it keeps a decoder); one instance per subtask.
 */
public final class MessageDecoder implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Deepest nesting accepted in a JSON input: the frontier record adds one level to it. */
    public static final int MAX_NESTING = 999;

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /** Outcome: {@link #url} set on success, {@link #reason} set on failure. */
    public static final class Decoded {
        public final String url;
        public final String metaJson;
        public final boolean metaOmitted;
        public final DeadLetterReason reason;
        public final String detail;

        /** The record's op; {@link Op#SEEN} for a bare URL. */
        public final Op op;

        /** For {@link Op#FORGET_KEY}: the key ({@link #url} is null then). */
        public final String opKey;

        /** The record's own {@code revisit_after} in millis; 0 if it has none. */
        public final long revisitAfterMillis;

        private Decoded(
                String url,
                String metaJson,
                boolean metaOmitted,
                DeadLetterReason reason,
                String detail,
                Op op,
                String opKey,
                long revisitAfterMillis) {
            this.url = url;
            this.metaJson = metaJson;
            this.metaOmitted = metaOmitted;
            this.reason = reason;
            this.detail = detail;
            this.op = op;
            this.opKey = opKey;
            this.revisitAfterMillis = revisitAfterMillis;
        }

        static Decoded ok(
                String url, String metaJson, boolean metaOmitted, Op op, long revisitAfterMillis) {
            return new Decoded(
                    url, metaJson, metaOmitted, null, null, op, null, revisitAfterMillis);
        }

        static Decoded forgetKey(String key) {
            return new Decoded(null, null, false, null, null, Op.FORGET_KEY, key, 0);
        }

        static Decoded fail(DeadLetterReason reason, String detail) {
            return new Decoded(null, null, false, reason, detail, Op.SEEN, null, 0);
        }
    }

    private final int maxRecordBytes;
    private final int maxUrlLength;
    private final int maxMetaBytes;
    private final boolean allowDeletes;
    private final boolean allowTimes;
    private transient CharsetDecoder utf8;
    private transient JsonFactory json;
    private transient JsonFields fields;

    /**
     * @param maxRecordBytes largest record value accepted, in bytes
     * @param maxUrlLength longest URL accepted, in characters after trimming
     * @param maxMetaBytes largest metadata carried, in bytes of JSON text; larger is left out
     */
    public MessageDecoder(int maxRecordBytes, int maxUrlLength, int maxMetaBytes) {
        this(maxRecordBytes, maxUrlLength, maxMetaBytes, true, true);
    }

    /** A decoder for exact mode ({@code exact}: both) or approximate mode with a Bloom filter. */
    public MessageDecoder(int maxRecordBytes, int maxUrlLength, int maxMetaBytes, boolean exact) {
        this(maxRecordBytes, maxUrlLength, maxMetaBytes, exact, exact);
    }

    /**
     * @param allowDeletes whether {@code forget} and {@code forget-key} are accepted: exact mode
     *     and approximate mode's fingerprint filter can delete, a Bloom filter cannot; otherwise
     *     they are {@code bad-op} dead letters
     * @param allowTimes whether {@code revisit_after} is accepted: only exact mode keeps times
     */
    public MessageDecoder(
            int maxRecordBytes,
            int maxUrlLength,
            int maxMetaBytes,
            boolean allowDeletes,
            boolean allowTimes) {
        this.maxRecordBytes = maxRecordBytes;
        this.maxUrlLength = maxUrlLength;
        this.maxMetaBytes = maxMetaBytes;
        this.allowDeletes = allowDeletes;
        this.allowTimes = allowTimes;
    }

    /**
     * Decodes one record value. Total: an exception from the parser or any other library on some
     * input becomes {@link DeadLetterReason#UNPROCESSABLE}, never an exception that would fail the
     * job on the same record again after every restart.
     */
    public Decoded decode(byte[] value) {
        try {
            return decodeOrThrow(value);
        } catch (RuntimeException | StackOverflowError e) {
            return Decoded.fail(DeadLetterReason.UNPROCESSABLE, "decoder failed: " + e);
        }
    }

    private Decoded decodeOrThrow(byte[] value) {
        if (value == null || value.length == 0) {
            return Decoded.fail(
                    DeadLetterReason.EMPTY, value == null ? "null value" : "empty value");
        }
        if (value.length > maxRecordBytes) {
            return Decoded.fail(
                    DeadLetterReason.TOO_LONG,
                    "record has " + value.length + " bytes, more than " + maxRecordBytes);
        }
        int from = startsWithBom(value) ? BOM.length : 0;
        String text;
        try {
            text = StrictUtf8.decode(decoder(), value, from, value.length - from);
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
        return checkUrl(trimmed, null, false, Op.SEEN, 0);
    }

    private static boolean startsWithBom(byte[] v) {
        return v.length >= 3 && v[0] == BOM[0] && v[1] == BOM[1] && v[2] == BOM[2];
    }

    private Decoded decodeJson(String text) {
        JsonFields f = fields();
        if (!FlatJson.read(text, f.reset())) {
            Decoded bad = readJson(text, f.reset());
            if (bad != null) {
                return bad;
            }
        }
        return judge(f);
    }

    /**
     * Reads any JSON object with Jackson into {@code f}; a dead letter if it is not one, else null.
     */
    Decoded readJson(String text, JsonFields f) {
        try (JsonParser p = factory().createParser(text)) {
            p.nextToken(); // START_OBJECT: the text starts with '{'
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                int start = (int) p.currentTokenLocation().getCharOffset();
                JsonToken v = p.nextToken();
                if (name.equals("url")) {
                    if (v == JsonToken.VALUE_STRING) {
                        f.url = p.getText();
                    } else {
                        f.urlNotText = true;
                        p.skipChildren();
                    }
                    continue;
                }
                if (name.equals("revisit_after")) {
                    f.revisitAfter = revisitAfterMillis(p, v);
                    if (f.revisitAfter <= 0) {
                        f.badRevisit = String.valueOf(p.getText());
                    }
                    p.skipChildren();
                    continue;
                }
                if (name.equals("op")) {
                    if (v == JsonToken.VALUE_STRING) {
                        f.opText = p.getText();
                    } else {
                        f.opNotText = true;
                        p.skipChildren();
                    }
                    continue;
                }
                p.skipChildren();
                p.finishToken(); // a string value is read lazily: read it to find its end
                int end = (int) p.currentLocation().getCharOffset();
                if (name.equals("key")) {
                    // The key of a forget-key op; for any other op an ordinary metadata field.
                    f.key = v == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                f.appendMeta(text, start, end);
            }
            if (t != JsonToken.END_OBJECT) {
                return Decoded.fail(DeadLetterReason.BAD_JSON, "not a JSON object");
            }
            if (!atEnd(p)) {
                return Decoded.fail(DeadLetterReason.BAD_JSON, "content after the JSON object");
            }
        } catch (JsonProcessingException e) {
            return Decoded.fail(
                    DeadLetterReason.BAD_JSON, "not a JSON object: " + e.getOriginalMessage());
        } catch (IOException e) {
            return Decoded.fail(DeadLetterReason.BAD_JSON, "not a JSON object: " + e);
        }
        return null;
    }

    /** The outcome of a JSON object's fields, however they were read. */
    private Decoded judge(JsonFields f) {
        String url = f.url;
        boolean urlNotText = f.urlNotText;
        String opText = f.opText;
        boolean opNotText = f.opNotText;
        long revisitAfter = f.revisitAfter;
        String badRevisit = f.badRevisit;
        String key = f.key;
        Op op = Op.SEEN;
        if (opText != null || opNotText) {
            op = opText == null ? null : Op.of(opText);
            if (op == null) {
                return Decoded.fail(
                        DeadLetterReason.BAD_OP,
                        opNotText
                                ? "field 'op' is not a string"
                                : "op '"
                                        + cut(opText)
                                        + "' is not one of seen, force, mark-seen,"
                                        + " forget, forget-key");
            }
            if (op.deletes() && !allowDeletes) {
                return Decoded.fail(
                        DeadLetterReason.BAD_OP,
                        "op '"
                                + op.code()
                                + "' needs dedup.mode EXACT, or dedup.approximate.filter"
                                + " FINGERPRINTS: a Bloom filter cannot delete");
            }
        }
        if (badRevisit != null) {
            return Decoded.fail(
                    DeadLetterReason.BAD_OP,
                    "revisit_after '"
                            + cut(String.valueOf(badRevisit))
                            + "' is not a positive ISO-8601 duration (P30D) or number of seconds");
        }
        if (revisitAfter > 0 && !allowTimes) {
            return Decoded.fail(
                    DeadLetterReason.BAD_OP,
                    "revisit_after needs dedup.mode EXACT: an approximate filter keeps no times");
        }
        if (op == Op.FORGET_KEY) {
            if (url != null || urlNotText) {
                return Decoded.fail(
                        DeadLetterReason.BAD_OP, "op 'forget-key' takes a 'key', not a 'url'");
            }
            if (key == null || key.isBlank() || key.length() > 253) {
                return Decoded.fail(
                        DeadLetterReason.BAD_OP,
                        "op 'forget-key' needs a field 'key': a partition key of 1 to 253"
                                + " characters");
            }
            return Decoded.forgetKey(key.strip());
        }
        if (url == null || url.isBlank()) {
            return Decoded.fail(
                    DeadLetterReason.MISSING_URL,
                    url == null && !urlNotText
                            ? "JSON object has no field 'url'"
                            : "field 'url' is not a non-empty string");
        }
        String metaJson = f.metaJson();
        if (metaJson == null) {
            return checkUrl(url.strip(), null, false, op, revisitAfter);
        }
        boolean fits = utf8Length(metaJson) <= maxMetaBytes;
        return checkUrl(url.strip(), fits ? metaJson : null, !fits, op, revisitAfter);
    }

    /** Longest revisit_after accepted: a century. */
    private static final long MAX_REVISIT_MILLIS = 100L * 366 * 24 * 3600 * 1000;

    /** A revisit_after value in millis; 0 or less if it is not a positive duration. */
    private static long revisitAfterMillis(JsonParser p, JsonToken v) throws IOException {
        long millis;
        if (v == JsonToken.VALUE_NUMBER_INT) {
            long seconds = p.getValueAsLong(-1);
            millis = seconds > 0 && seconds <= MAX_REVISIT_MILLIS / 1000 ? seconds * 1000 : -1;
        } else if (v == JsonToken.VALUE_STRING) {
            try {
                java.time.Duration d = java.time.Duration.parse(p.getText());
                millis =
                        d.isNegative()
                                        || d.compareTo(
                                                        java.time.Duration.ofMillis(
                                                                MAX_REVISIT_MILLIS))
                                                > 0
                                ? -1
                                : d.toMillis();
            } catch (java.time.format.DateTimeParseException | ArithmeticException e) {
                millis = -1;
            }
        } else {
            millis = -1;
        }
        return millis;
    }

    /** At most 64 characters of {@code s}, for a dead letter's detail. */
    private static String cut(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }

    /** True if nothing but white space follows the object. */
    private static boolean atEnd(JsonParser p) {
        try {
            return p.nextToken() == null;
        } catch (IOException e) {
            return false; // something that is not even a JSON token
        }
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }

    private Decoded checkUrl(
            String url, String metaJson, boolean metaOmitted, Op op, long revisitAfterMillis) {
        if (url.length() > maxUrlLength) {
            return Decoded.fail(
                    DeadLetterReason.TOO_LONG,
                    "URL has " + url.length() + " characters, more than " + maxUrlLength);
        }
        return Decoded.ok(url, metaJson, metaOmitted, op, revisitAfterMillis);
    }

    private CharsetDecoder decoder() {
        if (utf8 == null) {
            utf8 = StrictUtf8.newDecoder();
        }
        return utf8;
    }

    private JsonFields fields() {
        if (fields == null) {
            fields = new JsonFields();
        }
        return fields;
    }

    private JsonFactory factory() {
        if (json == null) {
            json =
                    JsonFactory.builder()
                            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                            .streamReadConstraints(
                                    StreamReadConstraints.builder()
                                            .maxNestingDepth(MAX_NESTING)
                                            .build())
                            .build();
        }
        return json;
    }
}
