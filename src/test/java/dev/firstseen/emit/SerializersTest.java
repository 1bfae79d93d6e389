package dev.firstseen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.junit.jupiter.api.Test;

/** The record formats the README documents, and their size bounds. */
class SerializersTest {
    private final ObjectMapper json = new ObjectMapper();

    private static <T> SerializationSchema<T> opened(SerializationSchema<T> s) throws Exception {
        s.open(null);
        return s;
    }

    private static byte[] dead(int maxRaw, byte[] value, DeadLetterReason reason, String detail)
            throws Exception {
        return opened(DeadLetterSerializer.value(maxRaw))
                .serialize(
                        DeadLetter.of(
                                value, new SourcePosition("in", 1, 7, 99), reason, detail, maxRaw));
    }

    @Test
    void frontierRecordFormat() throws Exception {
        FrontierRecord r =
                new FrontierRecord(
                        "HTTP://Example.com:80/a/./b#top",
                        "http://example.com/a/b",
                        "example.com",
                        1795000000000L,
                        "{\"depth\":2}",
                        new SourcePosition("urls", 3, 42L, 1795000000001L));
        assertThat(new String(FrontierSerializer.key().serialize(r), StandardCharsets.UTF_8))
                .isEqualTo("example.com");
        SerializationSchema<FrontierRecord> value = opened(FrontierSerializer.value());
        assertThat(new String(value.serialize(r), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"url\":\"HTTP://Example.com:80/a/./b#top\","
                                + "\"canonical\":\"http://example.com/a/b\","
                                + "\"key\":\"example.com\",\"first_seen\":1795000000000,"
                                + "\"source\":{\"topic\":\"urls\",\"partition\":3,\"offset\":42},"
                                + "\"meta\":{\"depth\":2}}");
        r.metaJson = null;
        r.url = "http://example.com/\"quoted\"";
        JsonNode n = json.readTree(value.serialize(r));
        assertThat(n.has("meta")).isFalse();
        assertThat(n.has("meta_omitted")).isFalse();
        assertThat(n.get("url").asText()).isEqualTo("http://example.com/\"quoted\"");
        r.metaOmitted = true;
        assertThat(json.readTree(value.serialize(r)).get("meta_omitted").asBoolean()).isTrue();
    }

    /**
     * A URL that is its own canonical form is escaped once and its bytes written twice: the value
     * is the one the two fields written apart give, whether the two strings are one object (as the
     * shuffle hands them on) or equal ones.
     */
    @Test
    void aCanonicalUrlIsWrittenAsTheUrl() throws Exception {
        SerializationSchema<FrontierRecord> value = opened(FrontierSerializer.value());
        for (String url :
                new String[] {
                    "http://example.com/a/b", "http://example.com/\"\u00e9\u0001\ud83d\ude00"
                }) {
            FrontierRecord r =
                    new FrontierRecord(
                            url,
                            new String(url.toCharArray()),
                            "example.com",
                            1795000000000L,
                            null,
                            new SourcePosition("urls", 3, 42L, 1795000000001L));
            byte[] equal = value.serialize(r);
            r.canonical = url;
            byte[] same = value.serialize(r);
            JsonNode n = json.readTree(equal);
            assertThat(n.get("url").asText()).isEqualTo(url);
            assertThat(n.get("canonical").asText()).isEqualTo(url);
            assertThat(same).isEqualTo(equal);
            r.canonical = "http://example.com/other";
            JsonNode other = json.readTree(value.serialize(r));
            assertThat(other.get("url").asText()).isEqualTo(url);
            assertThat(other.get("canonical").asText()).isEqualTo("http://example.com/other");
        }
    }

    @Test
    void deadLetterKeepsTextOrBase64AndTruncates() throws Exception {
        JsonNode n =
                json.readTree(
                        dead(
                                100,
                                "mailto:a@b".getBytes(StandardCharsets.UTF_8),
                                DeadLetterReason.UNSUPPORTED_SCHEME,
                                "scheme 'mailto'"));
        assertThat(n.get("reason").asText()).isEqualTo("unsupported-scheme");
        assertThat(n.get("detail").asText()).isEqualTo("scheme 'mailto'");
        assertThat(n.get("raw").asText()).isEqualTo("mailto:a@b");
        assertThat(n.get("raw_length").asInt()).isEqualTo(10);
        assertThat(n.get("raw_truncated").asBoolean()).isFalse();
        assertThat(n.get("source").get("offset").asLong()).isEqualTo(7);
        assertThat(n.get("source").get("timestamp").asLong()).isEqualTo(99);

        byte[] garbage = new byte[] {(byte) 0xff, 0, (byte) 0xc3, 'x', 5, 6};
        JsonNode g = json.readTree(dead(4, garbage, DeadLetterReason.INVALID_UTF8, "bad"));
        assertThat(g.has("raw")).isFalse();
        // 4 bytes of base64 text hold 3 bytes of the value.
        assertThat(Base64.getDecoder().decode(g.get("raw_base64").asText()))
                .containsExactly((byte) 0xff, 0, (byte) 0xc3);
        assertThat(g.get("raw_length").asInt()).isEqualTo(6);
        assertThat(g.get("raw_truncated").asBoolean()).isTrue();

        JsonNode nul = json.readTree(dead(4, null, DeadLetterReason.EMPTY, "null value"));
        assertThat(nul.get("raw").isNull()).isTrue();
        assertThat(nul.get("raw_length").asInt()).isEqualTo(-1);
    }

    /** A valid UTF-8 value cut mid-character stays text: the cut moves to a character boundary. */
    @Test
    void aUtf8ValueIsCutBetweenCharacters() throws Exception {
        byte[] value = "aé€😀z".getBytes(StandardCharsets.UTF_8); // 1 + 2 + 3 + 4 + 1 bytes
        for (int max = 1; max < value.length; max++) {
            JsonNode n =
                    json.readTree(dead(max, value, DeadLetterReason.TOO_LONG, "cut at " + max));
            assertThat(n.has("raw")).as("cut at %d", max).isTrue();
            String raw = n.get("raw").asText();
            assertThat("aé€😀z").startsWith(raw);
            assertThat(raw.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(max);
            assertThat(n.get("raw_truncated").asBoolean()).isTrue();
        }
    }

    /**
     * Control bytes escape to six bytes each; the dead letter still keeps to its bound (the issue
     * measured 3.1 MB for 512 kb of them before the bound counted escapes).
     */
    @Test
    void aDeadLetterStaysWithinItsBoundWhateverTheValue() throws Exception {
        int maxRaw = 512 << 10;
        byte[] controls = new byte[1 << 20];
        Arrays.fill(controls, (byte) 1);
        String longDetail = "scheme '" + "\u0001".repeat(100_000) + "' is not supported";
        for (byte[] value :
                new byte[][] {
                    controls,
                    new byte[1 << 20],
                    "x".repeat(1 << 20).getBytes(StandardCharsets.UTF_8)
                }) {
            byte[] out = dead(maxRaw, value, DeadLetterReason.TOO_LONG, longDetail);
            assertThat(out.length).isLessThanOrEqualTo(DeadLetterSerializer.maxBytes(maxRaw));
            JsonNode n = json.readTree(out);
            assertThat(n.get("raw_truncated").asBoolean()).isTrue();
            assertThat(n.get("raw_length").asInt()).isEqualTo(1 << 20);
        }
        byte[] invalid = new byte[1 << 20];
        Arrays.fill(invalid, (byte) 0xff);
        assertThat(dead(maxRaw, invalid, DeadLetterReason.INVALID_UTF8, "x").length)
                .isLessThanOrEqualTo(DeadLetterSerializer.maxBytes(maxRaw));
    }

    @Test
    void aFrontierRecordStaysWithinItsBound() throws Exception {
        int maxUrl = 8192;
        String url = "http://a.example/" + "\u0001\"é".repeat((maxUrl - 17) / 3);
        FrontierRecord r =
                new FrontierRecord(
                        url,
                        "http://a.example/" + "%01".repeat((maxUrl - 17) / 3),
                        "a".repeat(253),
                        1L,
                        "{\"m\":\"" + "x".repeat(16_000) + "\"}",
                        new SourcePosition("t".repeat(249), 0, Long.MAX_VALUE, Long.MIN_VALUE));
        byte[] out = opened(FrontierSerializer.value()).serialize(r);
        assertThat((long) out.length)
                .isLessThanOrEqualTo(FrontierSerializer.maxBytes(maxUrl, 16 << 10));
        assertThat(json.readTree(out).get("url").asText()).isEqualTo(url);
    }
}
